// IP literals as node:net's isIP, isIPv4 and isIPv6 read them (dotted quads without leading zeros;
// IPv6 with at most one "::" standing for at least one group, an optional trailing dotted quad and
// an optional %zone), written here so that a start need not evaluate node:net, and so that no
// large pattern is compiled at the first IPv6 address. test/net/ip.test.ts holds them to node's.
const V4_PART = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)'
const V4 = new RegExp(`^${V4_PART}(?:\\.${V4_PART}){3}$`)
const GROUP = /^[0-9a-fA-F]{1,4}$/
const ZONE = /^[0-9a-zA-Z.:-]+$/

export const isIPv4 = (text: string): boolean => V4.test(text)

export function isIPv6(text: string): boolean {
  let s = text
  const zone = s.indexOf('%')
  if (zone >= 0) {
    if (!ZONE.test(s.slice(zone + 1))) return false
    s = s.slice(0, zone)
  }
  // A trailing dotted quad stands for the last two groups.
  const lastColon = s.lastIndexOf(':')
  if (lastColon < 0) return false
  if (s.includes('.', lastColon)) {
    if (!isIPv4(s.slice(lastColon + 1))) return false
    s = `${s.slice(0, lastColon + 1)}0:0`
  }
  const gap = s.indexOf('::')
  if (gap < 0) {
    const groups = s.split(':')
    return groups.length === 8 && groups.every((g) => GROUP.test(g))
  }
  if (s.includes('::', gap + 1)) return false
  const head = s.slice(0, gap), tail = s.slice(gap + 2)
  const groups = [...(head ? head.split(':') : []), ...(tail ? tail.split(':') : [])]
  return groups.length <= 7 && groups.every((g) => GROUP.test(g))
}

// 4, 6, or 0 when `text` is not an IP literal.
export const isIP = (text: string): 0 | 4 | 6 => (isIPv4(text) ? 4 : isIPv6(text) ? 6 : 0)

// Parses an IPv4 or IPv6 literal into its bytes (4 or 16). IPv4-mapped IPv6 (::ffff:a.b.c.d)
// comes back as the 4 IPv4 bytes, so every caller treats it as the IPv4 address it is. An IPv6
// zone (the interface a link-local peer was seen on) is read past; an IPv4 address has none
// (node:net refuses 1.2.3.4%eth0 too).
export function parseIp(text: string): Uint8Array | null {
  const s = text.trim().replace(/^\[(.*)\]$/, '$1')
  if (isIPv4(s)) return Uint8Array.from(s.split('.').map(Number))
  if (!isIPv6(s)) return null
  const bytes = ipv6Bytes(s.replace(/%.*$/, ''))
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff
  return mapped ? bytes.slice(12) : bytes
}

function ipv6Bytes(s: string): Uint8Array {
  let text = s
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number)
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null]
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = tail === null ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t]
  const out = new Uint8Array(16)
  groups.forEach((g, i) => {
    const n = parseInt(g, 16)
    out[i * 2] = n >> 8
    out[i * 2 + 1] = n & 0xff
  })
  return out
}

// The key votes are matched on: "4:a.b.c.d" for IPv4 (and IPv4-mapped), "6:" + the first 64 bits
// in hex for IPv6 (one subscriber's /64 is one voter). Null for anything that is not an address.
export function ipKey(text: string): string | null {
  // The usual case, read on every vote: a plain dotted quad is its own key (isIPv4 admits no
  // leading zeros or spaces, so the text is already what joining its bytes would give).
  if (isIPv4(text)) return `4:${text}`
  const b = parseIp(text)
  if (!b) return null
  if (b.length === 4) return `4:${b.join('.')}`
  return `6:${Buffer.from(b.subarray(0, 8)).toString('hex')}`
}

export const ipFamily = (text: string): 4 | 6 | null => {
  const b = parseIp(text)
  return b ? (b.length === 4 ? 4 : 6) : null
}

// An IPv4-mapped IPv6 address (what a dual-stack listener, or a proxy on one, reports for an IPv4
// client) written as the IPv4 address it is: what a Votifier listener's plugins compare with a
// player's address. Any other text is returned as is.
export function plainAddress(address: string): string {
  if (!address.includes(':')) return address
  const b = parseIp(address)
  return b?.length === 4 ? b.join('.') : address
}

const inV4 = (b: Uint8Array, net: number[], bits: number) => {
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff
    if ((b[i] & mask) !== (net[i] & mask)) return false
  }
  return true
}

// Ranges a server list must never be made to connect to on an owner's say-so: loopback,
// RFC 1918 private, link-local, CGNAT, multicast, unspecified, plus the other special-purpose
// blocks (documentation, benchmarking, reserved, broadcast) that are never a real game server.
// Each with what it is, for messages ("the loopback address 127.0.0.1").
const V4_BLOCKED: [number[], number, string][] = [
  [[0, 0, 0, 0], 8, 'unspecified'], [[10, 0, 0, 0], 8, 'private (RFC 1918)'], [[100, 64, 0, 0], 10, 'shared (CGNAT)'],
  [[127, 0, 0, 0], 8, 'loopback'], [[169, 254, 0, 0], 16, 'link-local'], [[172, 16, 0, 0], 12, 'private (RFC 1918)'],
  [[192, 0, 0, 0], 24, 'reserved (IETF protocol)'], [[192, 0, 2, 0], 24, 'documentation'], [[192, 168, 0, 0], 16, 'private (RFC 1918)'],
  [[198, 18, 0, 0], 15, 'benchmarking'], [[198, 51, 100, 0], 24, 'documentation'], [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'], [[240, 0, 0, 0], 4, 'reserved'],
]

const v4Kind = (b: Uint8Array) => V4_BLOCKED.find(([net, bits]) => inV4(b, net, bits))?.[2] ?? null
const embedded = (b: Uint8Array) => {
  const kind = v4Kind(b)
  return kind && `${kind} (embedded IPv4)`
}

// What kind of non-public address `text` is ("loopback", "private (RFC 1918)", …), or null for a
// public address. Text that is not an address is never public.
export function reservedKind(text: string): string | null {
  const b = parseIp(text)
  if (!b) return 'malformed'
  if (b.length === 4) return v4Kind(b)
  const zeroUpTo = (n: number) => b.subarray(0, n).every((x) => x === 0)
  if (zeroUpTo(15) && b[15] === 0) return 'unspecified' // ::
  if (zeroUpTo(15) && b[15] === 1) return 'loopback' // ::1
  if (zeroUpTo(12)) return embedded(b.subarray(12)) // deprecated IPv4-compatible ::a.b.c.d
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local' // fe80::/10
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'site-local' // fec0::/10, deprecated
  if ((b[0] & 0xfe) === 0xfc) return 'private (unique local)' // fc00::/7
  if (b[0] === 0xff) return 'multicast'
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'documentation' // 2001:db8::/32
  // The local-use NAT64 prefix (RFC 8215, 64:ff9b:1::/48): a network's own translator, reaching
  // whatever that network chooses, and never globally reachable (IANA).
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0 && b[5] === 1) return 'local-use NAT64'
  // Forms that embed an IPv4 address a gateway would connect to: NAT64 64:ff9b::/96, 6to4 2002::/16.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.subarray(4, 12).every((x) => x === 0)) return embedded(b.subarray(12))
  if (b[0] === 0x20 && b[1] === 0x02) return embedded(b.subarray(2, 6))
  return null
}

export const isPrivateAddress = (text: string): boolean => reservedKind(text) !== null

// Numeric IPv4 forms, read as the WHATWG URL host parser reads them (and getaddrinfo, through
// inet_aton, reads the same ones): a host whose last label is a number is an IPv4 address of one
// to four parts, each decimal, 0x-hexadecimal or 0-led octal, the last part filling the bytes
// left: 2130706433, 0x7f000001, 127.1 and 0177.0.0.1 are all 127.0.0.1.

// One part's value, or null when it is not a number in its radix.
function ipv4Number(part: string): number | null {
  let text = part
  let radix = 10
  if (/^0x/i.test(text)) { text = text.slice(2); radix = 16 } else if (text.length > 1 && text.startsWith('0')) { text = text.slice(1); radix = 8 }
  if (text === '') return part === '' ? null : 0
  const digits = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/
  return digits.test(text) ? parseInt(text, radix) : null
}

const labelsOf = (host: string) => {
  const labels = host.split('.')
  if (labels.length > 1 && labels.at(-1) === '') labels.pop()
  return labels
}

// Whether `host` must be read as an IPv4 address (its last label is a number), not as a name.
export function endsInNumber(host: string): boolean {
  const last = labelsOf(host).at(-1)!
  return /^[0-9]+$/.test(last) || (last !== '' && ipv4Number(last) !== null)
}

// The dotted quad a numeric IPv4 form stands for, or null when it is not a valid one
// (too many parts, a part out of range, a digit outside its radix).
export function ipv4FromNumeric(host: string): string | null {
  const parts = labelsOf(host)
  if (parts.length > 4) return null
  const numbers = parts.map(ipv4Number)
  if (numbers.some((n) => n === null)) return null
  const values = numbers as number[]
  const last = values.pop()!
  if (values.some((n) => n > 255) || last >= 256 ** (4 - values.length)) return null
  const value = values.reduce((sum, n, i) => sum + n * 256 ** (3 - i), last)
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.')
}
