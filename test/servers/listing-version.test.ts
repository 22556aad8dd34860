import { SQL } from 'bun'
import { afterAll, describe, expect, test } from 'bun:test'
import { recordVote } from '../../src/votes/service.ts'
import { backends, closeTestSites, describeBackends } from '../backends.ts'
import { cleanupTemp, seedServer, siteOn } from '../helpers.ts'

afterAll(cleanupTemp)

// The listing version (migrations/0093_listing_version.sql) is what tells the public pages that
// what they kept is out of date: every change to what they show of a listing must move it,
// whoever writes it (here: plain statements, as the command line, another instance or an
// administrator at the database would), and votes and pings must not.
describeBackends('the listing version', (backend) => {
  test('moves with every change to a listing, its modes, icon, banner or owner; not with votes, pings or the owner\'s other fields', async () => {
    const rt = await siteOn(backend)
    const version = async () => rt.store.servers.listingVersion()
    const moves = async (write: () => Promise<unknown>) => {
      const before = await version()
      await write()
      return (await version()) !== before
    }
    const { server, owner } = await seedServer(rt, { name: 'Emerald Valley', modes: ['survival'] })
    const other = (await seedServer(rt, { name: 'Stone Isle' }, 'other@example.com')).server
    const now = rt.clock.now()

    // Not listing changes: a vote (the month counters), a ping (the status), a login's password.
    expect(await moves(() => recordVote(rt, server, 'Steve', ['203.0.113.7']))).toBe(false)
    expect(await moves(() => rt.rows('INSERT INTO server_status (server_num, online, players_online, players_max, last_ping_at) VALUES (?, 1, 3, 20, ?)', server.num, now))).toBe(false)
    expect(await moves(() => rt.rows('UPDATE server_status SET players_online = 4 WHERE server_num = ?', server.num))).toBe(false)
    expect(await moves(() => rt.rows('UPDATE "user" SET password_hash = password_hash WHERE id = ?', owner.id))).toBe(false)

    const changes: [string, string, ...unknown[]][] = [
      ['a name', 'UPDATE server SET name = ? WHERE id = ?', 'Renamed Valley', server.id],
      ['hidden', 'UPDATE server SET hidden = 1 WHERE id = ?', server.id],
      ['shown again', 'UPDATE server SET hidden = 0 WHERE id = ?', server.id],
      ['verified', 'UPDATE server SET verified_at = ? WHERE id = ?', now, server.id],
      ['a mode added', 'INSERT INTO server_mode (server_id, mode) VALUES (?, ?)', server.id, 'pvp'],
      ['a mode removed', 'DELETE FROM server_mode WHERE server_id = ? AND mode = ?', server.id, 'pvp'],
      ['an icon', 'INSERT INTO server_icon (server_num, png, hash, updated_at) VALUES (?, ?, ?, ?)', server.num, new Uint8Array([1]), 'a'.repeat(64), now],
      ['another icon', 'UPDATE server_icon SET hash = ? WHERE server_num = ?', 'b'.repeat(64), server.num],
      ['no icon', 'DELETE FROM server_icon WHERE server_num = ?', server.num],
      ['a banner', "INSERT INTO server_banner (server_num, type, width, height, bytes, hash, updated_at) VALUES (?, 'image/png', 468, 60, ?, ?, ?)", server.num, new Uint8Array([1]), 'c'.repeat(64), now],
      ['another banner', 'UPDATE server_banner SET hash = ? WHERE server_num = ?', 'd'.repeat(64), server.num],
      ['no banner', 'DELETE FROM server_banner WHERE server_num = ?', server.num],
      ['its owner disabled', 'UPDATE "user" SET disabled_at = ? WHERE id = ?', now, owner.id],
      ['its owner enabled', 'UPDATE "user" SET disabled_at = NULL WHERE id = ?', owner.id],
      ['another server deleted', 'DELETE FROM server WHERE id = ?', other.id],
      ['its owner deleted', 'DELETE FROM "user" WHERE id = ?', owner.id],
    ]
    const moved: Record<string, boolean> = {}
    for (const [what, sql, ...params] of changes) moved[what] = await moves(() => rt.rows(sql, ...params))
    expect(moved).toEqual(Object.fromEntries(changes.map(([what]) => [what, true])))
    // A server added through the site moves it too.
    expect(await moves(() => seedServer(rt, { name: 'New One' }, 'third@example.com'))).toBe(true)
  })
})

describe.if(backends.includes('postgres'))('the listing version on PostgreSQL', () => {
  afterAll(closeTestSites)

  // Its row is taken at the commit (deferred triggers): a transaction that changed one listing
  // and goes on to change another never waits in a cycle with one that changed the other first.
  test('two transactions editing two servers in opposite orders both commit', async () => {
    const rt = await siteOn('postgres')
    const a = (await seedServer(rt, { name: 'Alpha' })).server
    const b = (await seedServer(rt, { name: 'Bravo' })).server
    const before = await rt.store.servers.listingVersion()
    const [one, two] = [new SQL({ url: rt.config.database.url, max: 1 }), new SQL({ url: rt.config.database.url, max: 1 })]
    try {
      for (const c of [one, two]) await c.unsafe("SET lock_timeout = '5s'")
      await one.unsafe('BEGIN')
      await one.unsafe('UPDATE server SET name = $1 WHERE id = $2', ['Alpha 1', a.id])
      await two.unsafe('BEGIN')
      await two.unsafe('UPDATE server SET name = $1 WHERE id = $2', ['Bravo 2', b.id])
      const waiting = one.unsafe('UPDATE server SET name = $1 WHERE id = $2', ['Bravo 1', b.id])
      await two.unsafe('COMMIT')
      await waiting
      await one.unsafe('COMMIT')
    } finally {
      await Promise.all([one.close(), two.close()])
    }
    expect(await rt.rows('SELECT name FROM server WHERE id IN (?, ?) ORDER BY name', a.id, b.id)).toEqual([{ name: 'Alpha 1' }, { name: 'Bravo 1' }])
    expect(await rt.store.servers.listingVersion()).toBe(before + 3)
  })
})
