import { playerCount, versionText, type PingAnswer } from './answer.ts'
import { motdFromLegacy, motdText } from '../motd/format.ts'
import type { ListedAddress } from './java-ping.ts'
import { PingError, tcpExchange } from './tcp-exchange.ts'

// The 1.6 server list ping, answered by servers older than 1.7 (and by most newer ones):
// 0xFE 0x01, then plugin message 0xFA "MC|PingHost" carrying protocol 74, the host and the port;
// strings are UTF-16BE with a 16-bit length in characters. The answer is a kick packet 0xFF with
// one string: "§1\0protocol\0version\0motd\0online\0max" (1.4+) or "motd§online§max" (older).

const utf16 = (s: string) => Buffer.from(s, 'utf16le').swap16()
const u16 = (n: number) => [n >> 8, n & 0xff]

export function legacyRequest(host: string, port: number): Uint8Array {
  const channel = utf16('MC|PingHost')
  const name = utf16(host)
  return Uint8Array.from([
    0xfe, 0x01, 0xfa, ...u16(channel.length / 2), ...channel,
    ...u16(7 + name.length), 74, ...u16(name.length / 2), ...name,
    (port >>> 24) & 0xff, (port >>> 16) & 0xff, (port >>> 8) & 0xff, port & 0xff,
  ])
}

export function readLegacyAnswer(buf: Buffer): { value: string; used: number } | null {
  if (!buf.length) return null
  if (buf[0] !== 0xff) throw new PingError(`invalid answer: byte ${buf[0]} instead of the legacy kick packet`, true)
  if (buf.length < 3) return null
  const end = 3 + buf.readUInt16BE(1) * 2
  if (buf.length < end) return null
  return { value: Buffer.from(buf.subarray(3, end)).swap16().toString('utf16le'), used: end }
}

// The MOTD of a legacy answer (no favicon in this protocol).
function legacyMotd(text: string) {
  const motd = motdFromLegacy(text)
  return { motd: motdText(motd), styledMotd: motd, favicon: null }
}

export function parseLegacy(text: string): Omit<PingAnswer, 'latencyMs'> {
  if (text.startsWith('§1\0')) {
    const [, , version, motd, online, max] = text.split('\0')
    if (max === undefined) throw new PingError('invalid answer: incomplete legacy status', true)
    return { playersOnline: playerCount(online, 'online'), playersMax: playerCount(max, 'max'), version: versionText(version), ...legacyMotd(motd) }
  }
  const fields = text.split('§')
  if (fields.length < 3) throw new PingError('invalid answer: incomplete legacy status', true)
  const max = fields.pop()
  const online = fields.pop()
  return { playersOnline: playerCount(online, 'online'), playersMax: playerCount(max, 'max'), version: null, ...legacyMotd(fields.join('§')) }
}

export function pingLegacy(address: string, port: number, listed: ListedAddress, timeoutMs: number): Promise<PingAnswer> {
  return tcpExchange(address, port, timeoutMs, async (c) => {
    const sent = performance.now()
    c.write(legacyRequest(listed.host, listed.port))
    const text = await c.read(readLegacyAnswer)
    return { ...parseLegacy(text), latencyMs: Math.round(performance.now() - sent) }
  })
}
