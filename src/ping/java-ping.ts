import { randomBytes } from '../ids.ts'
import { playerCount, versionText, type PingAnswer } from './answer.ts'
import { motdFromChat, motdText } from '../motd/format.ts'
import { PingError, tcpExchange } from './tcp-exchange.ts'

// Java Edition Server List Ping (1.7+): every packet is framed as VarInt length + VarInt packet id
// + data. Handshake (id 0, next state 1 = status), status request (id 0) → status response (id 0,
// one JSON string), ping (id 1, 8 bytes) → pong (id 1, the same 8 bytes).

// By convention a client that only asks for the status sends protocol version -1.
const STATUS_PROTOCOL = -1

export function writeVarInt(value: number): number[] {
  const out: number[] = []
  let v = value >>> 0
  do {
    let b = v & 0x7f
    v >>>= 7
    if (v) b |= 0x80
    out.push(b)
  } while (v)
  return out
}

// null while incomplete; a VarInt is at most 5 bytes.
export function readVarInt(buf: Uint8Array, at: number): { value: number; size: number } | null {
  let value = 0
  for (let i = 0; i < 5; i++) {
    if (at + i >= buf.length) return null
    const b = buf[at + i]
    value |= (b & 0x7f) << (7 * i)
    if (!(b & 0x80)) return { value, size: i + 1 }
  }
  throw new PingError('invalid answer: VarInt longer than 5 bytes', true)
}

const str = (s: string) => {
  const bytes = Buffer.from(s, 'utf8')
  return [...writeVarInt(bytes.length), ...bytes]
}
export const frame = (packet: number[]) => [...writeVarInt(packet.length), ...packet]

export function handshake(host: string, port: number): Uint8Array {
  const hs = [...writeVarInt(0x00), ...writeVarInt(STATUS_PROTOCOL), ...str(host), port >> 8, port & 0xff, ...writeVarInt(1)]
  return Uint8Array.from([...frame(hs), ...frame([0x00])])
}

// One framed packet: its id and its data.
export function readPacket(buf: Buffer): { value: { id: number; data: Buffer }; used: number } | null {
  const len = readVarInt(buf, 0)
  if (!len) return null
  if (len.value < 1 || len.value > 1 << 20) throw new PingError(`invalid answer: packet length ${len.value}`, true)
  const end = len.size + len.value
  if (buf.length < end) return null
  const id = readVarInt(buf, len.size)
  if (!id || len.size + id.size > end) throw new PingError('invalid answer: truncated packet id', true)
  return { value: { id: id.value, data: buf.subarray(len.size + id.size, end) }, used: end }
}

// A 64×64 PNG favicon as a base64 data: URL; the icon itself is checked where it is kept
// (src/media/icon.ts). Longer than this, it cannot be an icon the site keeps.
const MAX_FAVICON = 64 * 1024

export function parseStatus(json: string): Omit<PingAnswer, 'latencyMs'> {
  let status: unknown
  try {
    status = JSON.parse(json)
  } catch {
    throw new PingError('invalid answer: the status is not JSON', true)
  }
  if (!status || typeof status !== 'object' || Array.isArray(status)) throw new PingError('invalid answer: the status is not a JSON object', true)
  const s = status as { players?: { online?: unknown; max?: unknown }; version?: { name?: unknown }; description?: unknown; favicon?: unknown }
  // A server may hide its player counts (no `players`): it is up with no count to show.
  const players = s.players && typeof s.players === 'object' ? s.players : { online: 0, max: 0 }
  const version = typeof s.version?.name === 'string' ? versionText(s.version.name) : null
  const motd = s.description === undefined ? null : motdFromChat(s.description)
  return {
    playersOnline: playerCount(players.online ?? 0, 'players.online'),
    playersMax: playerCount(players.max ?? 0, 'players.max'),
    version,
    motd: motd && motdText(motd),
    styledMotd: motd,
    favicon: typeof s.favicon === 'string' && s.favicon.length <= MAX_FAVICON ? s.favicon : null,
  }
}

// The address the server is listed at, as the handshake names it (proxies route virtual hosts by
// it); the connection goes to the already checked `address` and `port`.
export interface ListedAddress {
  host: string
  port: number
}

export function pingJava(address: string, port: number, listed: ListedAddress, timeoutMs: number): Promise<PingAnswer> {
  return tcpExchange(address, port, timeoutMs, async (c) => {
    const asked = performance.now()
    c.write(handshake(listed.host, listed.port))
    const response = await c.read(readPacket)
    const statusMs = performance.now() - asked
    if (response.id !== 0x00) throw new PingError(`invalid answer: packet ${response.id} instead of the status`, true)
    const len = readVarInt(response.data, 0)
    if (!len || len.size + len.value > response.data.length) throw new PingError('invalid answer: truncated status', true)
    const answer = parseStatus(response.data.subarray(len.size, len.size + len.value).toString('utf8'))
    let latencyMs = statusMs
    try {
      const token = randomBytes(8)
      const sent = performance.now()
      c.write(Uint8Array.from(frame([0x01, ...token])))
      const pong = await c.read(readPacket)
      if (pong.id === 0x01 && token.equals(pong.data)) latencyMs = performance.now() - sent
    } catch {
      // Some servers close after the status: the status round trip is then the latency.
    }
    return { ...answer, latencyMs: Math.round(latencyMs) }
  })
}
