import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/load.ts'
import { deleteServer } from '../../src/servers/service.ts'
import { recordVote } from '../../src/votes/service.ts'
import { cleanupTemp, seedServer, sqliteSite, tempDir, testLookup } from '../helpers.ts'
import { killChildren, listeningUrl, mainScript, spawnChild, writeSiteConfig } from '../spawn.ts'
import { until } from '../until.ts'

afterAll(() => { killChildren(); cleanupTemp() })

const VOTES = 150_000

// The site's database with a deleted server whose rows are still all there (deleted by a site
// that stopped before its purge began), and another server with two votes.
async function siteWithDeletedServer(dir: string) {
  const config = loadConfig(writeSiteConfig(dir))
  const rt = sqliteSite(config, { lookup: testLookup })
  const { owner, server: gone } = await seedServer(rt, { name: 'Gone', slug: 'gone' })
  const { server: kept } = await seedServer(rt, { name: 'Kept', slug: 'kept', host: 'kept.example.com' })
  const n = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)'
  const base = Date.now() - 10 * VOTES
  rt.db.run(`${n} INSERT INTO vote (id, server_id, pseudo, pseudo_key, created_at) SELECT 'seed-' || i, ?, 'P' || i, 'p' || i, ? + i FROM n`, [VOTES, gone.id, base])
  rt.db.run(`${n} INSERT INTO vote_address (vote_id, server_id, ip_key, address, created_at) SELECT 'seed-' || i, ?, 'ip-' || i, '203.0.113.7', ? + i FROM n`, [VOTES, gone.id, base])
  for (const pseudo of ['Steve', 'Alex']) await recordVote(rt, kept, pseudo, [null])
  await deleteServer(rt, gone, { id: owner.id, email: owner.email, isAdmin: false })
  rt.store.close()
  return { config: join(dir, 'votelist.toml'), gone, kept }
}

// The server's row alone: a cheap look, polled while the purge runs (counting its rows each time
// would take a core from the purge on a busy machine).
const rowThere = (path: string, serverId: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return db.query('SELECT 1 FROM server WHERE id = ?').get(serverId) !== null
  } finally {
    db.close()
  }
}

const rowsLeft = (path: string, serverId: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return db.query(`SELECT (SELECT count(*) FROM vote WHERE server_id = ?1) + (SELECT count(*) FROM vote_address WHERE server_id = ?1) AS n,
      (SELECT count(*) FROM server WHERE id = ?1) AS row`).get(serverId) as { n: number; row: number }
  } finally {
    db.close()
  }
}

test('a site killed (kill -9) in the middle of a purge shows nothing of the server, and the next start finishes the purge', async () => {
  const dir = tempDir()
  const { config, gone, kept } = await siteWithDeletedServer(dir)
  const path = join(dir, 'data/votelist.db')
  const total = rowsLeft(path, gone.id).n
  expect(total).toBe(2 * VOTES)

  // The purge starts with the site; it is killed once some of the rows are gone, not all.
  const first = spawnChild([process.execPath, mainScript, 'serve', '--config', config])
  await listeningUrl(first)
  await until(() => rowsLeft(path, gone.id).n < total, 'the purge to begin')
  first.proc.kill('SIGKILL')
  await first.exited
  const between = rowsLeft(path, gone.id)
  expect(between.n).toBeGreaterThan(0)
  expect(between.row).toBe(1)
  const db = new Database(path, { readonly: true })
  expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
  db.close()

  const second = spawnChild([process.execPath, mainScript, 'serve', '--config', config])
  const again = await listeningUrl(second)
  for (const page of ['/serveur/gone', '/api/v1/servers/gone']) expect((await fetch(`${again}${page}`)).status).toBe(404)
  expect((await fetch(`${again}/api/v1/servers/kept`)).status).toBe(200)
  // Some 290,000 rows at half the site's time: generous for a slow, busy machine.
  await until(() => !rowThere(path, gone.id), 'the purge to finish after the restart', 90_000)
  expect(rowsLeft(path, gone.id).n).toBe(0)
  second.proc.kill('SIGTERM')
  expect(await second.exited).toBe(0)
  const after = new Database(path, { readonly: true })
  expect(after.query('SELECT pseudo FROM vote WHERE server_id = ? ORDER BY pseudo').all(kept.id)).toEqual([{ pseudo: 'Alex' }, { pseudo: 'Steve' }])
  after.close()
}, 150_000)
