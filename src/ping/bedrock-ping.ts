import { randomBytes } from '../ids.ts'
import { nodeDgram } from '../lazy-modules.ts'
import { playerCount, versionText, type PingAnswer } from './answer.ts'
import { motdFromBedrock, motdText } from '../motd/format.ts'
import { PingError } from './tcp-exchange.ts'

// Bedrock Edition answers a RakNet "unconnected ping" over UDP:
//   ping 0x01 | time (8) | MAGIC (16) | client GUID (8)
//   pong 0x1C | time (8, echoed) | server GUID (8) | MAGIC (16) | length (u16) | string
// where string = "MCPE;motd;protocol;version;online;max;server id;level name;game mode;…".
export const RAKNET_MAGIC = Buffer.from('00ffff00fefefefefdfdfdfd12345678', 'hex')

export function unconnectedPing(attempt: number, guid: Uint8Array): Buffer {
  const b = Buffer.alloc(33)
  b[0] = 0x01
  b.writeBigUInt64BE(BigInt(attempt), 1)
  RAKNET_MAGIC.copy(b, 9)
  b.set(guid, 25)
  return b
}

// PocketMine-MP and Nukkit write a `;` of the MOTD as `\;` (and drop a trailing `\`), so a field
// ends at a `;` not preceded by `\`; any other backslash is text.
const FIELD_END = /(?<!\\);/
const fieldsOf = (text: string) => text.split(FIELD_END).map((f) => f.replaceAll('\\;', ';'))

export function parsePong(msg: Buffer): { attempt: number; answer: Omit<PingAnswer, 'latencyMs'> } {
  if (msg.length < 35 || msg[0] !== 0x1c || !msg.subarray(17, 33).equals(RAKNET_MAGIC)) throw new PingError('invalid answer: not a RakNet unconnected pong', true)
  const len = msg.readUInt16BE(33)
  if (msg.length < 35 + len) throw new PingError('invalid answer: truncated pong', true)
  const fields = fieldsOf(msg.subarray(35, 35 + len).toString('utf8'))
  if (fields.length < 6) throw new PingError('invalid answer: incomplete Bedrock status', true)
  const [, motd, , version, online, max, , level] = fields
  // Both lines of the advertisement, each with its own § codes. Bedrock has no favicon.
  const styled = motdFromBedrock(...[motd, level].filter((l) => l !== undefined && l !== ''))
  return {
    attempt: Number(msg.readBigUInt64BE(1) & 0xffffn),
    answer: { playersOnline: playerCount(online, 'online'), playersMax: playerCount(max, 'max'), version: versionText(version), motd: motdText(styled), styledMotd: styled, favicon: null },
  }
}

// UDP may lose a datagram: the ping is sent again every third of the timeout; the latency is
// measured from the send whose time the pong echoes.
export function pingBedrock(address: string, family: 4 | 6, port: number, timeoutMs: number): Promise<PingAnswer> {
  return new Promise((resolve, reject) => {
    const socket = nodeDgram().createSocket(family === 6 ? 'udp6' : 'udp4')
    const guid = randomBytes(8)
    const sentAt: number[] = []
    let settled = false
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      for (const t of timers) clearTimeout(t)
      socket.close()
      fn()
    }
    const send = () => {
      sentAt.push(performance.now())
      socket.send(unconnectedPing(sentAt.length - 1, guid), port, address, (e) => {
        if (e) finish(() => reject(new PingError(`could not send: ${(e as NodeJS.ErrnoException).code ?? e.message}`, false, true)))
      })
    }
    socket.on('message', (msg, from) => {
      if (from.port !== port || from.address.replace(/^::ffff:/, '') !== address.replace(/^::ffff:/, '')) return
      try {
        const { attempt, answer } = parsePong(msg)
        const start = sentAt[attempt] ?? sentAt[0]
        finish(() => resolve({ ...answer, latencyMs: Math.round(performance.now() - start) }))
      } catch (e) {
        finish(() => reject(e))
      }
    })
    // An ICMP port unreachable surfaces as an error on the socket.
    socket.on('error', (e: NodeJS.ErrnoException) => finish(() => reject(new PingError(e.code === 'ECONNREFUSED' ? 'port unreachable' : `UDP error: ${e.code ?? e.message}`, false, true))))
    const timers = [
      setTimeout(send, timeoutMs / 3),
      setTimeout(send, (2 * timeoutMs) / 3),
      setTimeout(() => finish(() => reject(new PingError(`no answer within ${timeoutMs} ms`))), timeoutMs),
    ]
    send()
  })
}
