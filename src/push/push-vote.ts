import { checkedAddress, type TargetOptions } from '../net/guard.ts'
import type { VotifierTimeouts, VotifierVote } from './votifier-connection.ts'
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
// and the connection goes to that address.
export async function pushVote(listener: VotifierListener, vote: VotifierVote, opts: TargetOptions & { timeouts: VotifierTimeouts }): Promise<void> {
  // The lookup and the TCP handshake share the connect time limit (the jobs' lease is sized on it).
  const deadline = performance.now() + opts.timeouts.connectMs
  const address = await checkedAddress(listener.host, opts, opts.timeouts.connectMs)
  const target = { host: listener.host, address, port: listener.port }
  const timeouts = { ...opts.timeouts, handshakeMs: Math.max(1, Math.ceil(deadline - performance.now())) }
  if (listener.protocol === 'v1') await sendVotifierV1(target, listener.publicKey ?? '', vote, timeouts)
  else await sendVotifierV2(target, listener.token ?? '', vote, timeouts)
}
