import { afterAll, expect, test } from 'bun:test'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'

afterAll(cleanupTemp)

// Behind a trusted proxy the voter is the right-most X-Forwarded-For entry. Some proxies write it
// with the client's port (Azure Application Gateway: "203.0.113.7:5678", IPv6 "[2001:db8::1]:5678").
// That entry is still the voter's address: read as unusable, every voter would be the proxy's
// socket address, and one vote would refuse every other voter of the site for the interval.
describeBackends('the voter\'s address behind a trusted proxy that writes ports', (backend) => {
  test('each voter is their own address, port or brackets aside; the proxy\'s address is never the voter', async () => {
    const rt = await siteOn(backend, { http: { trust_proxy: true } })
    const { server } = await seedServer(rt)
    const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
    try {
      const vote = (pseudo: string, forwarded: string) => fetch(`http://127.0.0.1:${app.server!.port}/serveur/${server.slug}/voter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': forwarded },
        body: JSON.stringify({ pseudo }),
      })
      const voters: [string, string, string][] = [
        ['Steve', '203.0.113.7:5678', '4:203.0.113.7'],
        ['Alex', '10.0.0.9, 198.51.100.1:40000', '4:198.51.100.1'],
        ['Notch', '[2001:db8:1:2::7]:443', '6:20010db800010002'],
        ['Herobrine', '[2001:db8:1:3::7]', '6:20010db800010003'],
      ]
      for (const [pseudo, forwarded] of voters) {
        const r = await vote(pseudo, forwarded)
        expect({ pseudo, status: r.status, body: r.status === 201 ? null : await r.text() }).toEqual({ pseudo, status: 201, body: null })
      }
      expect(await rt.rows('SELECT v.pseudo, a.ip_key AS k FROM vote v JOIN vote_address a ON a.vote_id = v.id ORDER BY v.created_at'))
        .toEqual(voters.map(([pseudo, , k]) => ({ pseudo, k })))
      // The same voter again, from another port: the same address, inside the interval.
      const again = await vote('Jeb', '203.0.113.7:9999')
      expect(again.status).toBe(429)
      expect((await again.json()).error.code).toBe('VOTE_TOO_SOON')
    } finally {
      await app.stop()
    }
  })
})
