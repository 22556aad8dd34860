import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { parse } from 'yaml'
import { sessionCookieName, startSession } from '../../src/accounts/session.ts'
import { newVotifierToken, votifierConfigLine } from '../../src/channels/service.ts'
import { readsAsPlainString, yamlScalar } from '../../src/channels/yaml-scalar.ts'
import { call, cleanupTemp, testApp } from '../helpers.ts'
import { describeBackends } from '../backends.ts'
import { deliveryRuntime } from '../deliveries/setup.ts'
import { json } from '../owner/session.ts'
import { startVotifierReceiver, type VotifierReceiver } from '../push/votifier-receiver.ts'

const stops: VotifierReceiver[] = []
afterEach(() => { for (const r of stops.splice(0)) r.stop() })
afterAll(cleanupTemp)

// An independent YAML 1.1 reader (eemeli's yaml in 1.1 mode, as SnakeYAML reads NuVotifier's
// config.yml): the `tokens:` section with the pasted line, as a map of what the listener sees.
function pasted(configLine: string): Map<unknown, unknown> {
  const doc = parse(`tokens:\n  ${configLine}\n`, { version: '1.1', mapAsMap: true }) as Map<string, Map<unknown, unknown>>
  return doc.get('tokens')!
}

// What YAML 1.1 makes of the text written plain, as the value of a key.
const plainValue = (text: string) => pasted(`key: ${text}`).get('key')

// The tokens, and one of each YAML 1.1 implicit type that a token or a service name can
// look like (bool, int in every base, float, null, timestamp, merge, value).
const NOT_PLAIN = [
  '1_000_000_000_000_000', '+1234567890123456', '0x1234567890abcdef', '0123456701234567',
  '0123456789012345', '12345678901234567890', '-1234567890123456', '0b1010101010101010', '1234567890123456e7',
  'yes', 'No', 'ON', 'off', 'y', 'N', 'true', 'FALSE', '~', 'null', 'Null', '', '1:20', '190:20:30', '1:20.5',
  '.5e3', '1.5', '+.5', '.inf', '-.Inf', '.NaN', '.', '1.e5', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '<<', '=', '-',
  'e1234567890123456', // a float to some readers (an exponent without a mantissa)
  'has space', 'colon:no-space', 'hash#inside', '#comment', '"quoted"', "'single'", '[list]', '{map}', '&anchor', '*alias',
  '!tag', '|literal', '>folded', '%directive', '@reserved', '`backtick`', 'tab\there', 'ünïcode', 'line\nbreak',
]

describe('a token or service name in NuVotifier\'s config.yml (YAML 1.1)', () => {
  test('is double-quoted when YAML 1.1 would not read it, written plain, as that exact string', () => {
    for (const text of NOT_PLAIN) {
      expect({ text, plain: readsAsPlainString(text) }).toEqual({ text, plain: false })
      expect(yamlScalar(text)).toBe(JSON.stringify(text))
      expect(plainValue(yamlScalar(text))).toBe(text)
    }
    // What the listener would have read without the quotes: not the string the site signs with.
    expect(typeof plainValue('0x1234567890abcdef')).toBe('number')
    expect(plainValue('1_000_000_000_000_000')).toBe(1e15)
    expect(plainValue('0123456701234567')).toBe(0o123456701234567)
    expect(plainValue('yes')).toBe(true)
    expect(plainValue('~')).toBeNull()
    expect(plainValue('1:20')).toBe(80)
    expect(plainValue('.5e3')).toBe(500)
  })

  test('is written plain when that already reads as the same string', () => {
    for (const text of [
      'k3j4h5g6f7d8s9a0q1w2e3r4t5', 'MyServerList', 'Emerald_List.v2', 'abc+def/ghi=', 'A-Za-z0-9_.+/=-', '-abc', '+abc', '=abc', '_1', '0x',
      '1.2.3.4.5.6.7.8a', '0123456789abcdef', 'v1', 'yesno', 'Nope', '123abc', 'e', '--', '__', '_', '/0123456789012345',
    ]) {
      expect({ text, plain: readsAsPlainString(text) }).toEqual({ text, plain: true })
      expect(yamlScalar(text)).toBe(text)
      expect(plainValue(text)).toBe(text)
    }
  })

  test('is also quoted where the reader used here is laxer than the type repository or SnakeYAML', () => {
    // "=" is the 1.1 value type, "1.2.3" a float by the repository's pattern, "+_" and "1_e5" floats
    // to SnakeYAML (the first does not even load there): eemeli's yaml reads them as strings.
    for (const text of ['=', '1.2.3', '0.1.2.3.4.5.6.7.8', '+_', '-_', '1_', '-0']) {
      expect({ text, quoted: yamlScalar(text) }).toEqual({ text, quoted: JSON.stringify(text) })
      expect(plainValue(yamlScalar(text))).toBe(text)
    }
  })

  // The characters a pasted token may have (channels/schema.ts TOKEN) and a service name may have
  // (site.service_name), weighted towards what YAML 1.1 takes for numbers.
  const numeric = fc.constantFrom(...'0123456789_.+-eExXbB')
  const tokenChar = fc.oneof(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+/=-'), numeric)
  const numberLike = fc.tuple(fc.constantFrom('', '+', '-', '0', '0x', '0b', '.', '0_'), fc.string({ unit: fc.constantFrom(...'0123456789_'), minLength: 1, maxLength: 30 }),
    fc.constantFrom('', '.', '.5', 'e5', 'e+12', 'E-3', '_', ':30')).map((parts) => parts.join(''))
  const token = fc.oneof(fc.string({ unit: tokenChar, minLength: 16, maxLength: 128 }), numberLike.filter((t) => t.length >= 16 && /^[A-Za-z0-9_.+\/=-]+$/.test(t)))
  const serviceName = fc.oneof(fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-'), minLength: 1, maxLength: 64 }),
    numberLike.filter((n) => /^[A-Za-z0-9_.-]{1,64}$/.test(n)), fc.constantFrom('yes', 'No', 'y', 'null', '.inf', '2024-01-01', '0x10', '-', '.'))

  test('property: parsing "tokens:\\n  <configLine>" as YAML 1.1 gives back exactly the token under the service name', () => {
    fc.assert(fc.property(serviceName, token, (service, tok) => {
      const tokens = pasted(votifierConfigLine(service, tok))
      expect([...tokens.entries()]).toEqual([[service, tok]])
    }), { numRuns: 3000 })
  })

  test('property: written plain only where YAML 1.1 reads it back as the same string', () => {
    let plain = 0
    fc.assert(fc.property(fc.oneof(token, serviceName), (text) => {
      if (!readsAsPlainString(text)) return
      plain++
      expect(plainValue(text)).toBe(text)
    }), { numRuns: 3000 })
    // The generators reach both sides of the rule.
    expect(plain).toBeGreaterThan(500)
    expect(plain).toBeLessThan(2900)
  })

  test('property: the site\'s own generated tokens (0-9a-v) survive too, all-digit ones with a leading 0 included', () => {
    const generated = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefghijklmnopqrstuv'), minLength: 32, maxLength: 32 }),
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 32, maxLength: 32 }),
      fc.string({ unit: fc.constantFrom(...'0123456789e'), minLength: 32, maxLength: 32 }),
    )
    fc.assert(fc.property(generated, (tok) => {
      expect([...pasted(votifierConfigLine('MyServerList', tok)).entries()]).toEqual([['MyServerList', tok]])
    }), { numRuns: 2000 })
    for (let i = 0; i < 200; i++) {
      const tok = newVotifierToken()
      expect(pasted(votifierConfigLine('MyServerList', tok)).get('MyServerList')).toBe(tok)
    }
    const zeros = '0'.repeat(31) + '7'
    expect(votifierConfigLine('MyServerList', zeros)).toBe(`MyServerList: "${zeros}"`)
  })
})

describeBackends('the config line the API gives', (backend) => {
  test('a pasted numeric token: the line is quoted, and a listener configured from it accepts the test vote', async () => {
    const { rt, server } = await deliveryRuntime(backend, { site: { service_name: 'CraftList' } })
    const app = await testApp(rt)
    const cookie = `${sessionCookieName(rt.siteUrl)}=${(await startSession(rt, server.ownerId)).token}`
    const token = '0123456701234567'
    const put = await json(await call(app, 'PUT', `/api/v1/me/servers/${server.slug}/votifier`, {
      headers: { cookie }, body: { host: '127.0.0.1', port: 1, protocol: 'v2', token },
    }))
    expect(put.body.votifier).toEqual({ host: '127.0.0.1', port: 1, protocol: 'v2', token, configLine: `CraftList: "${token}"` })
    // A listener whose config.yml has that line under tokens:, read as YAML 1.1; the target is
    // then moved to its port (the token is kept).
    const tokens = Object.fromEntries([...pasted(put.body.votifier.configLine)].map(([k, v]) => [String(k), v as string]))
    const receiver = startVotifierReceiver({ tokens })
    stops.push(receiver)
    await call(app, 'PUT', `/api/v1/me/servers/${server.slug}/votifier`, { headers: { cookie }, body: { host: '127.0.0.1', port: receiver.port, protocol: 'v2' } })
    const tested = await json(await call(app, 'POST', `/api/v1/me/servers/${server.slug}/test`, { headers: { cookie } }))
    expect(tested.body.results).toEqual([{ channel: 'votifier', status: 'succeeded', error: null, durationMs: expect.any(Number) }])
    expect(receiver.votes).toEqual([expect.objectContaining({ protocol: 'v2', serviceName: 'CraftList', username: 'VotelistTest' })])
    // Unquoted, YAML 1.1 would have handed the listener a number, and the vote would be refused.
    expect(pasted(`CraftList: ${token}`).get('CraftList')).toBe(0o123456701234567)
  })
})
