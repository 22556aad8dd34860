// The baseline of votes.bench.ts: a bare Bun.serve that does one SQLite insert per POST, on a
// database opened with the site's own pragmas (WAL, synchronous=NORMAL) and, like the site, its
// WAL checkpoints in a thread of their own. Prints its port.
import { join } from 'node:path'
import { startCheckpointer } from '../../src/db/checkpointer.ts'
import { openDatabase } from '../../src/db/open.ts'
import { memoryLogger } from '../../src/log.ts'

const db = openDatabase(join(process.argv[2], 'bare.db'))
db.run('CREATE TABLE IF NOT EXISTS vote (id TEXT PRIMARY KEY, pseudo TEXT NOT NULL, created_at INTEGER NOT NULL)')
// Inserts wait while the checkpointer catches up, as the site's grouped writes do.
let held: Promise<unknown> | null = null
const checkpoints = startCheckpointer(db, memoryLogger(), (until) => {
  held = until
  void until.then(() => {
    if (held === until) held = null
  })
})
const insert = db.prepare('INSERT INTO vote (id, pseudo, created_at) VALUES (?, ?, ?)')
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const { pseudo } = (await req.json()) as { pseudo: string }
    if (held) await held
    const id = Bun.randomUUIDv7()
    const createdAt = Date.now()
    insert.run(id, pseudo, createdAt)
    return Response.json({ ok: true, vote: { id, pseudo, createdAt: new Date(createdAt).toISOString() } }, { status: 201 })
  },
})
console.log(server.port)
process.on('SIGTERM', async () => { server.stop(true); await checkpoints?.stop(); db.close(); checkpoints?.release(); process.exit(0) })
