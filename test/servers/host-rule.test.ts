import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { EXIT, runCli } from '../../src/cli.ts'
import type { ConfigInput } from '../../src/config/load.ts'
import type { Lookup } from '../../src/net/guard.ts'
import { endsInNumber } from '../../src/net/ip.ts'
import { checkHost } from '../../src/servers/service.ts'
import { cleanupTemp, tempDir, testApp, testRuntime } from '../helpers.ts'
import { as, json, ownerSession } from '../owner/session.ts'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

afterAll(cleanupTemp)

const PUBLIC_ONLY = 'votelist only lists public servers (network.allow_private_targets is off)'
const invalid = (message: string) => ({ status: 400, body: { ok: false, error: { code: 'INVALID_PARAMETER', message, field: 'host' } } })

// A resolver that answers from a table and records what it was asked; names not in the table do
// not resolve. Never a real DNS server.
function tableLookup(table: Record<string, string[]>) {
  const asked: string[] = []
  const lookup: Lookup = async (host) => {
    asked.push(host)
    const addresses = Object.hasOwn(table, host) ? table[host] : undefined
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { lookup, asked }
}

const DNS = {
  'play.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'lan.example.com': ['192.168.1.20'],
  // One public and one private address: refused (a rebinding name could answer either).
  'split.example.com': ['93.184.216.34', '10.0.0.7'],
  'meta.example.com': ['169.254.169.254'],
  'six.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'cgnat.example.com': ['100.64.3.4'],
}

async function setup(config: ConfigInput = {}, lookup: Lookup = tableLookup(DNS).lookup) {
  const rt = testRuntime(config, undefined, { lookup })
  const app = await testApp(rt)
  const owner = as(app, (await ownerSession(rt, 'owner@example.com')).headers)
  return { rt, owner }
}

describe('numeric IPv4 forms', () => {
  test('are read as the WHATWG URL parser reads them, and stored as the dotted quad', () => {
    const cases: [string, string][] = [
      ['2130706433', '127.0.0.1'], ['0x7f000001', '127.0.0.1'], ['0X7F000001', '127.0.0.1'], ['127.1', '127.0.0.1'],
      ['0177.0.0.1', '127.0.0.1'], ['127.0.1', '127.0.0.1'], ['0x7f.1', '127.0.0.1'], ['127.000.000.001', '127.0.0.1'],
      ['127.0.0.1.', '127.0.0.1'], ['134744072', '8.8.8.8'], ['8.8.2056', '8.8.8.8'], ['010.010.010.010', '8.8.8.8'],
      ['0', '0.0.0.0'], ['4294967295', '255.255.255.255'], [' [127.1] ', '127.0.0.1'],
    ]
    for (const [given, address] of cases) {
      expect([given, checkHost(given)]).toEqual([given, address])
      expect([given, checkHost(given)]).toEqual([given, new URL(`http://${given.trim().replace(/^\[(.*)\]$/, '$1')}/`).hostname])
    }
  })

  test('that are no valid IPv4 address are refused, as a name cannot end in a number', () => {
    for (const given of ['1.2.3.4.5', '256.1.1.1', '1.256.1.1', '1.2.65536', '4294967296', '09', '08.1.1.1', 'server.1', 'mc.example.0x1', '1..1']) {
      expect(() => checkHost(given)).toThrow(`host ${given} is not a valid IPv4 address (and a host name cannot end in a number)`)
      expect(() => new URL(`http://${given}/`)).toThrow()
    }
  })

  test('property: for any host of digits, hex letters, x and dots ending in a number, checkHost agrees with the URL parser', () => {
    const text = fc.string({ unit: fc.constantFrom(...'0123456789abcdefxX.'), minLength: 1, maxLength: 24 })
    let numeric = 0
    fc.assert(fc.property(text, (host) => {
      let url: string | null
      try { url = new URL(`http://${host}/`).hostname } catch { url = null }
      if (!endsInNumber(host.toLowerCase())) {
        // Read as a name, as the URL parser does: never as an address.
        if (url !== null) expect(url).not.toMatch(/^\d+\.\d+\.\d+\.\d+$/)
        return
      }
      numeric++
      let ours: string | null
      try { ours = checkHost(host) } catch { ours = null }
      expect({ host, ours }).toEqual({ host, ours: url })
    }), { numRuns: 5000 })
    expect(numeric).toBeGreaterThan(500)
  })

  test('property: every 32-bit address written in 1 to 4 parts of any radix reads back as itself', () => {
    const encode = (n: number, radix: 8 | 10 | 16) => (radix === 16 ? `0x${n.toString(16)}` : radix === 8 ? `0${n.toString(8)}` : String(n))
    fc.assert(fc.property(fc.nat(0xffffffff), fc.integer({ min: 1, max: 4 }), fc.array(fc.constantFrom(8 as const, 10 as const, 16 as const), { minLength: 4, maxLength: 4 }), (value, count, radixes) => {
      const bytes = [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256)
      const lead = bytes.slice(0, count - 1)
      const rest = bytes.slice(count - 1).reduce((sum, b) => sum * 256 + b, 0)
      const host = [...lead, rest].map((n, i) => encode(n, radixes[i])).join('.')
      expect(checkHost(host)).toBe(bytes.join('.'))
    }), { numRuns: 2000 })
  })
})

describe('the save-time host rule (network.allow_private_targets = false)', () => {
  test('refuses private targets, saying what the address is: literals, numeric forms, localhost, names resolving to one', async () => {
    const { rt, owner } = await setup()
    const cases: [string, string][] = [
      ['127.0.0.1', 'host 127.0.0.1 is a loopback address'],
      ['127.1', 'host 127.1 is the loopback address 127.0.0.1'],
      ['2130706433', 'host 2130706433 is the loopback address 127.0.0.1'],
      ['0x7f000001', 'host 0x7f000001 is the loopback address 127.0.0.1'],
      ['0177.0.0.1', 'host 0177.0.0.1 is the loopback address 127.0.0.1'],
      ['10.0.0.5', 'host 10.0.0.5 is a private (RFC 1918) address'],
      ['0xa.0x0.0x0.0x5', 'host 0xa.0x0.0x0.0x5 is the private (RFC 1918) address 10.0.0.5'],
      ['172.16.9.9', 'host 172.16.9.9 is a private (RFC 1918) address'],
      ['169.254.169.254', 'host 169.254.169.254 is a link-local address'],
      ['100.64.0.1', 'host 100.64.0.1 is a shared (CGNAT) address'],
      ['0.0.0.0', 'host 0.0.0.0 is an unspecified address'],
      ['0', 'host 0 is the unspecified address 0.0.0.0'],
      ['224.0.0.1', 'host 224.0.0.1 is a multicast address'],
      ['255.255.255.255', 'host 255.255.255.255 is a reserved address'],
      ['192.0.2.10', 'host 192.0.2.10 is a documentation address'],
      ['::1', 'host ::1 is a loopback address'],
      ['[::1]', 'host [::1] is a loopback address'],
      ['fe80::1', 'host fe80::1 is a link-local address'],
      ['fd00::5', 'host fd00::5 is a private (unique local) address'],
      ['::ffff:10.0.0.1', 'host ::ffff:10.0.0.1 is a private (RFC 1918) address'],
      ['64:ff9b::7f00:1', 'host 64:ff9b::7f00:1 is a loopback (embedded IPv4) address'],
      ['localhost', 'host localhost is this machine (loopback)'],
      ['LocalHost.', 'host LocalHost. is this machine (loopback)'],
      ['mc.localhost', 'host mc.localhost is this machine (loopback)'],
      ['lan.example.com', 'host lan.example.com resolves to the private (RFC 1918) address 192.168.1.20'],
      ['split.example.com', 'host split.example.com resolves to the private (RFC 1918) address 10.0.0.7'],
      ['meta.example.com', 'host meta.example.com resolves to the link-local address 169.254.169.254'],
      ['six.example.com', 'host six.example.com resolves to the private (unique local) address fd12:3456::1'],
      ['mapped.example.com', 'host mapped.example.com resolves to the loopback address ::ffff:127.0.0.1'],
      ['cgnat.example.com', 'host cgnat.example.com resolves to the shared (CGNAT) address 100.64.3.4'],
    ]
    for (const [host, message] of cases) {
      expect([host, await json(await owner('POST', '/api/v1/me/servers', { name: 'Sneaky', host }))]).toEqual([host, invalid(`${message}: ${PUBLIC_ONLY}`)])
    }
    expect(rt.store.servers.all()).toEqual([])

    // PATCH follows the same rule, and a refused change leaves the server as it was.
    expect((await owner('POST', '/api/v1/me/servers', { name: 'Alpha', host: 'play.example.com' })).status).toBe(201)
    for (const [host, message] of cases) {
      expect([host, await json(await owner('PATCH', '/api/v1/me/servers/alpha', { host, name: 'Renamed' }))]).toEqual([host, invalid(`${message}: ${PUBLIC_ONLY}`)])
    }
    expect(rt.store.servers.bySlug('alpha')).toMatchObject({ name: 'Alpha', host: 'play.example.com' })
  })

  test('a public host is saved: numeric forms as their dotted quad, names as given', async () => {
    const { owner } = await setup()
    const saved = async (host: string) => (await json(await owner('POST', '/api/v1/me/servers', { name: `S ${host}`, host }))).body.server?.host
    expect(await saved('134744072')).toBe('8.8.8.8')
    expect(await saved('0x8.0x8.0x8.0x8')).toBe('8.8.8.8')
    expect(await saved('8.8.2056')).toBe('8.8.8.8')
    expect(await saved('1.1.1.1')).toBe('1.1.1.1')
    expect(await saved('2606:4700:4700::1111')).toBe('2606:4700:4700::1111')
    expect(await saved('Play.Example.com')).toBe('play.example.com')
    expect(await json(await owner('PATCH', '/api/v1/me/servers/s-134744072', { host: '0x01010101' }))).toMatchObject({ status: 200, body: { server: { host: '1.1.1.1' } } })
  })

  test('a name that does not resolve (yet) is accepted: the ping will say so', async () => {
    const { owner } = await setup()
    const r = await json(await owner('POST', '/api/v1/me/servers', { name: 'Future', host: 'not-yet.example.net' }))
    expect(r).toMatchObject({ status: 201, body: { server: { host: 'not-yet.example.net' } } })
  })

  test('a resolver that does not answer within stats.ping_timeout_seconds does not hold the save', async () => {
    const { owner } = await setup({ stats: { ping_timeout_seconds: 1 } }, () => new Promise(() => {}))
    const started = performance.now()
    const r = await json(await owner('POST', '/api/v1/me/servers', { name: 'Slow DNS', host: 'slow.example.org' }))
    expect(r).toMatchObject({ status: 201, body: { server: { host: 'slow.example.org' } } })
    expect(performance.now() - started).toBeGreaterThanOrEqual(990)
  })

  test('with network.allow_private_targets = true everything is accepted without a lookup; numeric forms are still normalised', async () => {
    const dns = tableLookup(DNS)
    const { owner } = await setup({ network: { allow_private_targets: true } }, dns.lookup)
    for (const [host, stored] of [['127.1', '127.0.0.1'], ['localhost', 'localhost'], ['lan.example.com', 'lan.example.com'], ['10.0.0.5', '10.0.0.5']]) {
      expect((await json(await owner('POST', '/api/v1/me/servers', { name: `S ${host}`, host }))).body.server.host).toBe(stored)
    }
    expect(dns.asked).toEqual([])
  })
})

describe('votelist server add', () => {
  test('applies the same rule: a private target is refused with exit 2 and the reason, a numeric form is normalised', async () => {
    const dir = tempDir()
    const config = join(dir, 'votelist.toml')
    writeFileSync(config, '[site]\nservice_name = "HostRule"\n')
    const { lookup } = tableLookup(DNS)
    const run = async (...argv: string[]) => {
      const out: string[] = []
      const err: string[] = []
      const code = await runCli([...argv, '--config', config], { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir, lookup })
      return { code, out: out.join('\n'), err: err.join('\n') }
    }
    expect((await run('user', 'add', '--email', 'o@example.com', '--password', 'correct horse battery')).code).toBe(0)
    const add = (host: string) => run('server', 'add', '--owner', 'o@example.com', '--name', `S ${host}`, '--host', host)
    expect(await add('lan.example.com')).toEqual({ code: EXIT.usage, out: '', err: `votelist server: host lan.example.com resolves to the private (RFC 1918) address 192.168.1.20: ${PUBLIC_ONLY}` })
    expect(await add('127.1')).toEqual({ code: EXIT.usage, out: '', err: `votelist server: host 127.1 is the loopback address 127.0.0.1: ${PUBLIC_ONLY}` })
    const ok = await add('134744072')
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.out).host).toBe('8.8.8.8')
  })
})
