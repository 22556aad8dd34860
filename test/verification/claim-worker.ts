// A separate process claiming votes on a shared database file, for the cross-process claim test.
// argv: database path, server id, pseudo, number of claims. Prints the claimed vote ids as JSON.
import { parseConfig } from '../../src/config/load.ts'
import { openStore } from '../../src/runtime.ts'
import { claimVote } from '../../src/verification/service.ts'

const [path, serverId, pseudo, count] = process.argv.slice(2)
const rt = await openStore(parseConfig({ database: { path } }, '/'))
const key = { id: 'worker', serverId, slug: '', name: '', edition: 'java' as const }
const won: string[] = []
for (let i = 0; i < Number(count); i++) {
  const r = await claimVote(rt, key, { pseudo, window: 1440 }, Date.now())
  if (r.claimed) won.push(r.vote.id)
}
console.log(JSON.stringify(won))
rt.store.close()
