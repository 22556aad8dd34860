import { resolveTarget, TargetRefused, type Lookup } from '../net/guard.ts'
import { DeliveryFailure } from './failure.ts'

export interface TargetOptions {
  allowPrivate: boolean
  lookup?: Lookup // tests only: a resolver that never leaves the machine
}

// The send-time SSRF check shared by both channels: resolve the owner's host once and return the
// address that was checked, to connect to it (a rebinding DNS server gets no second question).
export async function checkedAddress(host: string, opts: TargetOptions): Promise<string> {
  try {
    return (await resolveTarget(host, opts.allowPrivate, opts.lookup)).address
  } catch (e) {
    if (!(e instanceof TargetRefused)) throw e
    throw new DeliveryFailure(e.reason === 'unresolved'
      ? `DNS failure: ${e.message} (check the host name)`
      : `private target refused: ${e.message}; votelist only connects to public addresses`)
  }
}
