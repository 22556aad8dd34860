import { checkedAddresses, DeliveryFailure, type TargetOptions } from '../net/guard.ts'
import { ConnectFailure, type VotifierTimeouts, type VotifierVote } from './votifier-connection.ts'
import { sendVotifierV1 } from './votifier-v1.ts'
import { sendVotifierV2 } from './votifier-v2.ts'

// An owner's Votifier listener: where it is and the credential of its protocol.
export interface VotifierListener {
  host: string
  port: number
  protocol: 'v1' | 'v2'
  publicKey: string | null // v1: base64 DER SubjectPublicKeyInfo
  token: string | null // v2
}

// One push to the owner's Votifier listener: the host is checked and resolved here, at send time,
// and the connection goes to those addresses. An address that refuses the connection, cannot be
// reached or does not complete the handshake in its share of the time is followed by the next one,
// as Java's clients find an IPv4-only listener (NuVotifier binds 0.0.0.0 by default) behind a name
// with an IPv6 address too. Once connected, the vote may have been sent: no other address is tried.
export async function pushVote(listener: VotifierListener, vote: VotifierVote, opts: TargetOptions & { timeouts: VotifierTimeouts }): Promise<void> {
  // The lookup and the TCP handshakes share the connect time limit (the jobs' lease is sized on it).
  const deadline = performance.now() + opts.timeouts.connectMs
  const addresses = await checkedAddresses(listener.host, opts, opts.timeouts.connectMs)
  const refused: ConnectFailure[] = []
  for (const [i, address] of addresses.entries()) {
    const left = Math.ceil(deadline - performance.now())
    if (refused.length && left <= 0) break
    const target = { host: listener.host, address, port: listener.port }
    // An equal share of the time left for each address still to try: an address whose firewall
    // drops the handshake must not leave none to the next one.
    const timeouts = { ...opts.timeouts, handshakeMs: Math.max(1, Math.ceil(left / (addresses.length - i))) }
    try {
      if (listener.protocol === 'v1') await sendVotifierV1(target, listener.publicKey ?? '', vote, timeouts)
      else await sendVotifierV2(target, listener.token ?? '', vote, timeouts)
      return
    } catch (e) {
      if (!(e instanceof ConnectFailure)) throw e
      refused.push(e)
    }
  }
  throw refused.length === 1 ? refused[0] : new DeliveryFailure(refused.map((e) => e.message).join('; '))
}
