import type { VotifierSettings } from '../channels/repo.ts'
import { checkedAddress, type TargetOptions } from '../net/guard.ts'
import type { VotifierTimeouts } from './votifier-connection.ts'
import { sendVotifierV1 } from './votifier-v1.ts'
import { sendVotifierV2 } from './votifier-v2.ts'
import type { VotifierVote } from './votifier-vote.ts'

// One push to the owner's Votifier listener with the current settings: the host is checked and
// resolved here, at send time, and the connection goes to that address.
export async function pushVote(settings: VotifierSettings, vote: VotifierVote, opts: TargetOptions & { timeouts: VotifierTimeouts }): Promise<void> {
  const address = await checkedAddress(settings.host, opts)
  const target = { host: settings.host, address, port: settings.port }
  if (settings.protocol === 'v1') await sendVotifierV1(target, settings.publicKey ?? '', vote, opts.timeouts)
  else await sendVotifierV2(target, settings.token ?? '', vote, opts.timeouts)
}
