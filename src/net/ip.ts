import { isIPv4, isIPv6 } from 'node:net'

// Parses an IPv4 or IPv6 literal into its bytes (4 or 16). IPv4-mapped IPv6 (::ffff:a.b.c.d)
// comes back as the 4 IPv4 bytes, so every caller treats it as the IPv4 address it is.
export function parseIp(text: string): Uint8Array | null {
  const s = text.trim().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  if (isIPv4(s)) return Uint8Array.from(s.split('.').map(Number))
  if (!isIPv6(s)) return null
  const bytes = ipv6Bytes(s)
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
const V4_BLOCKED: [number[], number][] = [
  [[0, 0, 0, 0], 8], [[10, 0, 0, 0], 8], [[100, 64, 0, 0], 10], [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], [[172, 16, 0, 0], 12], [[192, 0, 0, 0], 24], [[192, 0, 2, 0], 24],
  [[192, 168, 0, 0], 16], [[198, 18, 0, 0], 15], [[198, 51, 100, 0], 24], [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4], [[240, 0, 0, 0], 4],
]

function isPrivateV4(b: Uint8Array) {
  return V4_BLOCKED.some(([net, bits]) => inV4(b, net, bits))
}

export function isPrivateAddress(text: string): boolean {
  const b = parseIp(text)
  if (!b) return true
  if (b.length === 4) return isPrivateV4(b)
  const zeroUpTo = (n: number) => b.subarray(0, n).every((x) => x === 0)
  if (zeroUpTo(15) && (b[15] === 0 || b[15] === 1)) return true // :: and ::1
  if (zeroUpTo(12)) return isPrivateV4(b.subarray(12)) // deprecated IPv4-compatible ::a.b.c.d
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return true // fe80::/10 link-local
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return true // fec0::/10 old site-local
  if ((b[0] & 0xfe) === 0xfc) return true // fc00::/7 unique local
  if (b[0] === 0xff) return true // multicast
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return true // 2001:db8::/32 documentation
  // Forms that embed an IPv4 address a gateway would connect to: NAT64 64:ff9b::/96, 6to4 2002::/16.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.subarray(4, 12).every((x) => x === 0)) return isPrivateV4(b.subarray(12))
  if (b[0] === 0x20 && b[1] === 0x02) return isPrivateV4(b.subarray(2, 6))
  return false
}
