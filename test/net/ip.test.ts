import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ipKey, isPrivateAddress, parseIp } from '../../src/net/ip.ts'
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

  test('non-addresses have no key', () => {
    for (const s of ['', 'example.com', '1.2.3', '256.1.1.1', '2001:db8::1::2', '::ffff:1.2.3']) expect(ipKey(s)).toBeNull()
  })

  test('parses compressed forms', () => {
    expect([...parseIp('::1')!]).toEqual([...Array(15).fill(0), 1])
    expect([...parseIp('fe80::1%eth0')!].slice(0, 2)).toEqual([0xfe, 0x80])
  })

  const blocked = [
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    '64:ff9b::a00:1', '2002:7f00:1::', '2001:db8::1',
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
