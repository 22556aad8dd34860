// A separate process claiming votes on a shared database, for the cross-process claim test.
// argv: the [database] settings as JSON (an SQLite path or a PostgreSQL url), server id, pseudo,
// number of claims. Prints the claimed vote ids as JSON.
import { parseConfig } from '../../src/config/load.ts'
import { openStore } from '../../src/runtime.ts'
import { claimVote } from '../../src/verification/service.ts'

const [database, serverId, pseudo, count] = process.argv.slice(2)
const { path, url } = JSON.parse(database) as { path: string; url: string }
const rt = await openStore(parseConfig({ database: url ? { url } : { path } }, '/'))
const key = { id: 'worker', serverId, slug: '', name: '', edition: 'java' as const }
const won: string[] = []
for (let i = 0; i < Number(count); i++) {
  const r = await claimVote(rt, key, { pseudo, window: 1440 }, Date.now())
  if (r.claimed) won.push(r.vote.id)
}
console.log(JSON.stringify(won))
await rt.store.close()
