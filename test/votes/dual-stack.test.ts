import { afterAll, describe, expect, test } from 'bun:test'
import { describeBackends } from '../backends.ts'
import { type BackendRuntime, call, cleanupTemp, seedServer, siteOn, testApp } from '../helpers.ts'
import { useDeliveryHandler } from '../deliveries/setup.ts'
import { startVotifierReceiver } from '../push/votifier-receiver.ts'
import { onFreeDualStackPort } from '../real-server.ts'

afterAll(cleanupTemp)


describeBackends('dual-stack capture on a real listener (127.0.0.1 and ::1)', (backend) => {
  test('the vote records the IPv4 and the IPv6 address; tokens are checked for signature, expiry and family', async () => {
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const site = { base_url: `http://localhost:${port}`, ipv4_url: `http://127.0.0.1:${port}`, ipv6_url: `http://[::1]:${port}` }
      const rt = await siteOn(backend, { site })
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    const base = `http://localhost:${port}`
    const v4 = `http://127.0.0.1:${port}`
    const v6 = `http://[::1]:${port}`
    const { server } = await seedServer(rt, { name: 'Emerald Valley' })
    const other = (await seedServer(rt, { name: 'Other Place' })).server
    try {
      // The vote page hands both single-family URLs to its script.
      const page = await (await call(app, 'GET', `/serveur/${server.slug}/voter`)).text()
      expect(page).toContain(`data-ipv4-url="${v4}" data-ipv6-url="${v6}"`)
      expect(page).toContain('<input type="hidden" name="ipv4Token" value=""><input type="hidden" name="ipv6Token" value="">')

      const token = async (url: string, origin = base) => {
        const r = await fetch(`${url}/api/v1/vote-token`, { headers: { origin } })
        expect(r.status).toBe(200)
        return { cors: r.headers.get('access-control-allow-origin'), body: await r.json() }
      }
      const t4 = await token(v4)
      const t6 = await token(v6)
      expect(t4.cors).toBe(base)
      expect(t4.body).toMatchObject({ ok: true, family: 4, address: '127.0.0.1' })
      expect(t6.body).toMatchObject({ ok: true, family: 6, address: '::1' })
      expect((await token(v4, 'https://evil.example')).cors).toBeNull()

      const vote = (url: string, slug: string, body: Record<string, string>) =>
        fetch(`${url}/serveur/${slug}/voter`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', origin: base }, body: JSON.stringify(body) })

      const ok = await vote(v4, server.slug, { pseudo: 'Steve', ipv4Token: t4.body.token, ipv6Token: t6.body.token })
      expect(ok.status).toBe(201)
      const { vote: recorded } = await ok.json()
      expect(await rt.rows('SELECT ip_key AS k FROM vote_address WHERE vote_id = ? ORDER BY ip_key', recorded.id))
        .toEqual([{ k: '4:127.0.0.1' }, { k: '6:0000000000000000' }])

      // Another name from the IPv6 side is the same voter.
      const again = await vote(v6, server.slug, { pseudo: 'Alex' })
      expect(again.status).toBe(429)
      expect((await again.json()).error.code).toBe('VOTE_TOO_SOON')

      const refused = async (body: Record<string, string>, message: string) => {
        const r = await vote(v6, other.slug, { pseudo: 'Notch', ...body })
        expect(r.status).toBe(400)
        expect((await r.json()).error.message).toBe(message)
      }
      await refused({ ipv4Token: t6.body.token }, 'ipv4Token does not carry an IPv4 address')
      await refused({ ipv6Token: t4.body.token }, 'ipv6Token does not carry an IPv6 address')
      const [body, mac] = t4.body.token.split('.')
      const forgedBody = Buffer.from('198.51.100.1|99999999999999').toString('base64url')
      await refused({ ipv4Token: `${forgedBody}.${mac}` }, 'ipv4Token is not a token issued by this site')
      // A changed MAC. Its first character, not its last: the last one of a 32-byte MAC carries
      // two unused bits, and "A" → "B" changes only those (1 token in 16 decoded unchanged).
      await refused({ ipv4Token: `${body}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}` }, 'ipv4Token is not a token issued by this site')
      await refused({ ipv4Token: 'garbage' }, 'ipv4Token is not a token issued by this site')
      rt.clock.advance(10 * 60_000 + 1)
      await refused({ ipv4Token: t4.body.token }, 'ipv4Token expired: reload the vote page')
      expect((await rt.row('SELECT count(*) AS n FROM vote WHERE server_id = ?', other.id) as { n: number }).n).toBe(0)
    } finally {
      await app.stop()
    }
  })

  test('without ipv4_url / ipv6_url the connecting address alone is kept', async () => {
    const rt = await siteOn(backend, { http: { trust_proxy: true } })
    const { server } = await seedServer(rt)
    const app = await testApp(rt)
    const page = await (await call(app, 'GET', `/serveur/${server.slug}/voter`)).text()
    expect(page).not.toContain('data-ipv4-url')
    const r = await call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body: { pseudo: 'Steve', ipv6Token: 'anything' }, headers: { accept: 'application/json', 'x-forwarded-for': '203.0.113.9' },
    })
    expect(r.status).toBe(201)
    expect(await rt.rows('SELECT ip_key AS k FROM vote_address')).toEqual([{ k: '4:203.0.113.9' }])
  })

  test('an IPv4 voter on a dual-stack listener (::) is pushed as its IPv4 address, not ::ffff:a.b.c.d', async () => {
    const receiver = startVotifierReceiver({ tokens: { MyServerList: 'tok' } })
    const { port, rt, app } = await onFreeDualStackPort(async (port) => {
      const rt = await siteOn(backend, { site: { base_url: `http://localhost:${port}` }, network: { allow_private_targets: true } })
      return { port, rt, app: (await testApp(rt)).listen({ hostname: '::', port }) }
    })
    useDeliveryHandler(rt)
    const { server } = await seedServer(rt)
    await rt.store.channels.putVotifier({ serverId: server.id, host: '127.0.0.1', port: receiver.port, protocol: 'v2', publicKey: null, token: 'tok' }, rt.clock.now())
    try {
      const r = await fetch(`http://127.0.0.1:${port}/serveur/${server.slug}/voter`, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', origin: `http://localhost:${port}` }, body: JSON.stringify({ pseudo: 'Steve' }),
      })
      expect(r.status).toBe(201)
      await rt.queue.drain()
      expect(receiver.votes.map((v) => v.address)).toEqual(['127.0.0.1'])
      expect(await rt.rows('SELECT address FROM vote_address')).toEqual([{ address: '127.0.0.1' }])
    } finally {
      receiver.stop()
      await app.stop()
    }
  })

  test('a proxy on a dual-stack socket that forwards ::ffff:a.b.c.d: the IPv4 address is recorded', async () => {
    const rt = await siteOn(backend, { http: { trust_proxy: true } })
    const { server } = await seedServer(rt)
    const app = await testApp(rt)
    const r = await call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body: { pseudo: 'Steve' }, headers: { accept: 'application/json', 'x-forwarded-for': '::ffff:203.0.113.9' },
    })
    expect(r.status).toBe(201)
    // The same address written in hexadecimal groups (::ffff:cb00:710a is 203.0.113.10).
    const hex = await call(app, 'POST', `/serveur/${server.slug}/voter`, {
      body: { pseudo: 'Alex' }, headers: { accept: 'application/json', 'x-forwarded-for': '::ffff:cb00:710a' },
    })
    expect(hex.status).toBe(201)
    expect(await rt.rows('SELECT address FROM vote_address ORDER BY address DESC')).toEqual([{ address: '203.0.113.9' }, { address: '203.0.113.10' }])
  })
})
