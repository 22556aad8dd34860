import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { audit } from '../../src/audit/service.ts'
import { use, type TxScript } from '../../src/db/store.ts'
import { backends, closeTestSites } from '../backends.ts'
import { call, cleanupTemp, siteOn, testApp, type BackendRuntime } from '../helpers.ts'
import { ownerSession } from '../owner/session.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

type Tx = Parameters<Parameters<BackendRuntime['store']['write']>[0]>[0]
type Page = { labels: string[]; next: string | null }

// On PostgreSQL an id is taken from its sequence when a transaction inserts, and the row becomes
// visible when that transaction commits: in another order when two overlap. Lists paged newest
// first by id (`before` = the last id of the previous page) must still never skip a row. Here a
// transaction inserts row 4 and stays open while another inserts row 5 and commits (or waits its
// turn); the first page is read then, the first transaction commits, and the pages go on from
// `next`. What was paged through is every row from the newest one seen down, with none missing.
async function pageAcrossLateCommit(rt: BackendRuntime, write: (tx: Tx, n: number) => TxScript<unknown>, page: (before: string | null) => Promise<Page>) {
  for (const n of [1, 2, 3]) await rt.store.write((tx) => write(tx, n))
  let commit!: () => void
  let wrote!: () => void
  const written = new Promise<void>((r) => { wrote = r })
  const held = rt.store.write(function* (tx) {
    yield* write(tx, 4)
    wrote()
    yield* use(new Promise<void>((r) => { commit = r }))
  })
  await written
  let settled = false
  const later = rt.store.write((tx) => write(tx, 5)).finally(() => { settled = true })
  const waiting = async () => (await rt.rows(`SELECT 1 FROM pg_locks WHERE NOT granted AND locktype = 'advisory'
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).length > 0
  await until(async () => settled || (await waiting()), 'row 5 to be committed, or to wait for row 4\'s transaction')
  let p = await page(null)
  const seen = [...p.labels]
  commit()
  await Promise.all([held, later])
  while (p.next !== null) {
    p = await page(p.next)
    seen.push(...p.labels)
  }
  const all: string[] = []
  for (let q = await page(null); ; q = await page(q.next)) {
    all.push(...q.labels)
    if (q.next === null) break
  }
  expect(all).toEqual(['5', '4', '3', '2', '1'])
  expect(seen).toEqual(all.slice(all.indexOf(seen[0])))
}

describe.if(backends.includes('postgres'))('paging by id on PostgreSQL while transactions overlap', () => {
  afterEach(closeTestSites)

  test('the audit log: an entry committed after a later one is not skipped', async () => {
    const rt = await siteOn('postgres')
    const app = await testApp(rt)
    const admin = await ownerSession(rt, 'admin@example.com', true)
    const actor = admin.user
    await pageAcrossLateCommit(
      rt,
      (tx, n) => audit(tx, rt.clock.now(), actor, 'user.promote', { type: 'user', id: actor.id, label: String(n) }),
      async (before) => {
        const r = await call(app, 'GET', `/api/v1/admin/audit?limit=2${before ? `&before=${before}` : ''}`, { headers: admin.headers })
        const body = await r.json()
        return { labels: body.entries.map((e: { target: { label: string } }) => e.target.label), next: body.next }
      },
    )
  })
})
