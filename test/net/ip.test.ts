import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import * as net from 'node:net'
import { ipKey, isIP, isIPv4, isIPv6, isPrivateAddress, parseIp } from '../../src/net/ip.ts'
import { resolveTarget, TargetRefused } from '../../src/net/guard.ts'

describe('addresses', () => {
  test('IPv4 keys are exact; IPv4-mapped IPv6 is the same IPv4 address', () => {
    expect(ipKey('203.0.113.7')).toBe('4:203.0.113.7')
    expect(ipKey('::ffff:203.0.113.7')).toBe('4:203.0.113.7')
    expect(ipKey('::ffff:cb00:7107')).toBe('4:203.0.113.7')
    expect(ipKey('203.0.113.8')).not.toBe(ipKey('203.0.113.7'))
  })

  test('IPv6 keys are the /64: same prefix matches, another /64 does not', () => {
    const a = ipKey('2001:db8:1:2:aaaa::1')
    expect(a).toBe('6:20010db800010002')
    expect(ipKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(a)
    expect(ipKey('2001:0db8:0001:0002::')).toBe(a)
    expect(ipKey('[2001:db8:1:2::9]')).toBe(a)
    expect(ipKey('2001:db8:1:3::1')).not.toBe(a)
  })

  test('every spelling of an IPv4 address gets the key of its bytes (plain, mapped, bracketed, spaced)', () => {
    fc.assert(fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), (bytes) => {
      const dotted = bytes.join('.')
      const key = `4:${dotted}`
      for (const spelling of [dotted, ` ${dotted} `, `::ffff:${dotted}`, `[::ffff:${dotted}]`]) expect(ipKey(spelling)).toBe(key)
      expect(ipKey(`::ffff:${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`)).toBe(key)
    }))
  })

  // The site's own reading of IP literals (kept so that a start need not load node:net) must be
  // node's, text for text: well-formed addresses, every zone and embedding, and near misses.
  test('isIP, isIPv4 and isIPv6 answer as node:net does', () => {
    const same = (text: string) => {
      const ours: unknown[] = [text, isIPv4(text), isIPv6(text), isIP(text)]
      expect(ours).toEqual([text, net.isIPv4(text), net.isIPv6(text), net.isIP(text)])
    }
    for (const text of [
      '', ':', '::', ':::', '::1', '1::', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3',
      '1:2:3:4:5:6:7::8', '12345::', 'g::1', '::ffff:1.2.3.4', '::1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4',
      '::1:2:3:4:5:1.2.3.4', '::1:2:3:4:5:6:1.2.3.4', '1.2.3.4::', '::1.2.3', '::01.2.3.4', 'fe80::1%eth0', 'fe80::1%', '::1%a%b',
      '::1%en-0.x:y', '::1%é', '1.2.3.4', '01.2.3.4', '1.2.3.04', '255.255.255.255', '256.0.0.0', '1.2.3', '1.2.3.4.5', ' 1.2.3.4',
      '1.2.3.4 ', '1.2.3.4%eth0', '0x7f.0.0.1', '[::1]', 'FE80::ABCD', '1:2:3:4:5:6:7:8%z', ':1:2:3:4:5:6:7', '1:2:3:4:5:6:7:',
    ]) same(text)
    const zone = fc.stringMatching(/^%[0-9a-zA-Z.:%é-]{0,4}$/)
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6(), fc.tuple(fc.ipV6(), zone).map(([a, z]) => a + z)), same), { numRuns: 2000 })
    // Near misses: random texts over the characters of addresses.
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-fA-Fg:.%]{0,24}$/), same), { numRuns: 5000 })
    // And well-formed addresses with one character changed, dropped or doubled.
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), fc.nat(), fc.constantFrom(':', '.', '0', 'f', '%', ''), fc.boolean(), (a, at, c, drop) => {
      const i = at % (a.length + 1)
      same(a.slice(0, i) + c + a.slice(drop ? i + 1 : i))
    }), { numRuns: 5000 })
  })

  test('non-addresses have no key', () => {
    for (const s of ['', 'example.com', '1.2.3', '256.1.1.1', '2001:db8::1::2', '::ffff:1.2.3']) expect(ipKey(s)).toBeNull()
  })

  test('an IPv4 address has no zone: 1.2.3.4%eth0 is no address, as node:net reads it', () => {
    for (const s of ['203.0.113.7%eth0', '203.0.113.7%', '[203.0.113.7%1]', '::ffff:203.0.113.7%eth0%x']) {
      expect({ s, key: ipKey(s), bytes: parseIp(s) }).toEqual({ s, key: null, bytes: null })
    }
    // An IPv6 zone (the interface a link-local peer was seen on) is still read past.
    expect(ipKey('2001:db8:1:2::1%eth0')).toBe('6:20010db800010002')
  })

  test('parses compressed forms', () => {
    expect([...parseIp('::1')!]).toEqual([...Array(15).fill(0), 1])
    expect([...parseIp('fe80::1%eth0')!].slice(0, 2)).toEqual([0xfe, 0x80])
  })

  const blocked = [
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    '64:ff9b::a00:1', '2002:7f00:1::', '2001:db8::1', '64:ff9b:1::808:808', '64:ff9b:1:ffff::1',
  ]
  const allowed = ['1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']
  test('private, loopback, link-local, CGNAT, multicast and unspecified ranges are refused', () => {
    for (const a of blocked) expect([a, isPrivateAddress(a)]).toEqual([a, true])
    for (const a of allowed) expect([a, isPrivateAddress(a)]).toEqual([a, false])
  })

  test('resolveTarget returns the checked address and refuses private ones unless allowed', async () => {
    const fakeDns = async (host: string) => (host === 'rebind.test'
      ? [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }]
      : [{ address: '93.184.216.34', family: 4 }])
    expect(await resolveTarget('public.test', false, fakeDns)).toEqual({ host: 'public.test', address: '93.184.216.34', family: 4 })
    await expect(resolveTarget('rebind.test', false, fakeDns)).rejects.toBeInstanceOf(TargetRefused)
    await expect(resolveTarget('127.0.0.1', false)).rejects.toThrow('private or reserved')
    await expect(resolveTarget('[::1]', false)).rejects.toThrow('private or reserved')
    expect(await resolveTarget('127.0.0.1', true)).toEqual({ host: '127.0.0.1', address: '127.0.0.1', family: 4 })
    expect(await resolveTarget('[::1]', true)).toEqual({ host: '::1', address: '::1', family: 6 })
    await expect(resolveTarget('nothing.invalid', true, async () => { throw new Error('ENOTFOUND') })).rejects.toThrow('could not be resolved')
  })
})
