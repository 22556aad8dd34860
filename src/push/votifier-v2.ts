import { hmacSha256 } from '../ids.ts'
import { DeliveryFailure } from '../net/guard.ts'
import { openVotifierConnection, type VotifierTarget, type VotifierTimeouts, type VotifierVote } from './votifier-connection.ts'

// NuVotifier's v2 frame: magic 0x733A, uint16 length of the UTF-8 JSON message, the message. Its
// frame decoder takes at most 1024 bytes, header included.
const MAGIC = 0x733a
const MAX_MESSAGE_BYTES = 1024 - 4

// The signed message for one greeting's challenge. The signature covers the payload string's
// exact UTF-8 bytes, so the payload travels as a string inside the message.
export function frameVotifierV2(token: string, vote: VotifierVote, challenge: string): Buffer {
  const payload = JSON.stringify({ ...vote, challenge })
  const signature = hmacSha256(token, payload).toString('base64')
  const message = Buffer.from(JSON.stringify({ payload, signature }), 'utf8')
  if (message.length > MAX_MESSAGE_BYTES) {
    throw new DeliveryFailure(`the v2 vote message is ${message.length} bytes, more than the ${MAX_MESSAGE_BYTES} NuVotifier accepts`)
  }
  const frame = Buffer.alloc(4 + message.length)
  frame.writeUInt16BE(MAGIC, 0)
  frame.writeUInt16BE(message.length, 2)
  message.copy(frame, 4)
  return frame
}

// A field of the listener's answer, in words and short: the listener chooses its size (up to the
// 64 KiB of an answer) and its type, and the attempt's row shows it.
function said(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

// What the owner can do about NuVotifier's error texts.
function hint(error: string, serviceName: string): string {
  if (/signature/i.test(error)) return ` — wrong token: it differs from the token under "tokens:" in the listener's config`
  if (/unknown service/i.test(error)) return ` — add the line "${serviceName}: <token>" under "tokens:" in the listener's config`
  return ''
}

// Votifier v2: greeting "VOTIFIER <version> <challenge>", one framed vote signed with the shared
// token, then a JSON answer {"status":"ok"} or {"status":"error","cause","error"}.
export async function sendVotifierV2(target: VotifierTarget, token: string, vote: VotifierVote, timeouts: VotifierTimeouts): Promise<void> {
  const conn = await openVotifierConnection(target, timeouts)
  try {
    const greeting = await conn.readLine('greeting', 256)
    const [word, version, challenge] = greeting.split(' ')
    if (word !== 'VOTIFIER') {
      throw new DeliveryFailure(`${target.host}:${target.port} is not a Votifier listener: it greeted with "${greeting.slice(0, 60)}"`)
    }
    if (!challenge) {
      throw new DeliveryFailure(`the listener greeted as Votifier ${version ?? ''} without a challenge: it speaks only v1; choose v1 and paste its rsa/public.key`)
    }
    await conn.write(frameVotifierV2(token, vote, challenge))
    const text = await conn.readAnswer()
    let answer: { status?: unknown; cause?: unknown; error?: unknown }
    try {
      answer = JSON.parse(text)
    } catch {
      throw new DeliveryFailure(`the listener answered something other than JSON: "${text.slice(0, 80)}"`)
    }
    if (answer?.status === 'ok') return
    if (answer?.status === 'error') {
      const why = [answer.cause, answer.error].filter((v) => v !== undefined && v !== null && v !== '').map(said)
      if (!why.length) throw new DeliveryFailure(`the listener refused the vote without saying why (its answer: ${said(text)})`)
      const error = typeof answer.error === 'string' ? answer.error : ''
      throw new DeliveryFailure(`the listener refused the vote: ${why.join(': ')}${hint(error, vote.serviceName)}`)
    }
    throw new DeliveryFailure(`the listener answered an unknown status: "${text.slice(0, 80)}"`)
  } finally {
    conn.close()
  }
}
