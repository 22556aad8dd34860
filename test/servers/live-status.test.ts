import { afterAll, describe, expect, test } from 'bun:test'
import { call, cleanupTemp, seedServer, testApp, testRuntime } from '../helpers.ts'
import { ownerSession } from '../owner/session.ts'

afterAll(cleanupTemp)

// "My servers" shows players online: the owner's lists carry the last ping of each server.

describe('the last ping in the owner\'s server lists', () => {
  test('null before the first ping; then online, players and time; a failed ping says why', async () => {
    const rt = testRuntime({}, Date.UTC(2026, 10, 22, 10, 0))
    const app = await testApp(rt)
    const admin = await ownerSession(rt, 'admin@example.com', true)
    const { server } = await seedServer(rt, { name: 'Pinged' }, 'admin@example.com')
    const get = async (path: string) => (await call(app, 'GET', path, { headers: admin.headers })).json()
    const fields = (s: any) => ({ online: s.online, players: s.players, lastPingAt: s.lastPingAt, pingError: s.pingError })

    expect(fields((await get('/api/v1/me/servers')).servers[0])).toEqual({ online: null, players: null, lastPingAt: null, pingError: null })

    const at = rt.clock.now()
    const up = { online: true, playersOnline: 7, playersMax: 20, version: '1.21.4', motd: 'hi', styledMotd: [[{ text: 'hi' }]], favicon: null, latencyMs: 3, error: null }
    expect(rt.store.stats.recordMeasurement(at, { serverNum: server.num, serverId: server.id, status: up, at })).toBe(true)
    const seen = { online: true, players: { online: 7, max: 20 }, lastPingAt: new Date(at).toISOString(), pingError: null }
    expect(fields((await get('/api/v1/me/servers')).servers[0])).toEqual(seen)
    expect(fields((await get(`/api/v1/me/servers/${server.slug}`)).server)).toEqual(seen)
    expect(fields((await get('/api/v1/admin/servers')).servers[0])).toEqual(seen)

    const later = at + 300_000
    const down = { online: false, playersOnline: 0, playersMax: 0, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error: 'connection refused' }
    rt.store.stats.recordMeasurement(later, { serverNum: server.num, serverId: server.id, status: down, at: later })
    expect(fields((await get('/api/v1/me/servers')).servers[0])).toEqual({
      online: false, players: { online: 0, max: 0 }, lastPingAt: new Date(later).toISOString(), pingError: 'connection refused',
    })
  })
})
