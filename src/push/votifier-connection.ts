import { nodeNet } from '../lazy-modules.ts'
import { DeliveryFailure, seconds } from '../net/guard.ts'

// The four fields every Votifier vote carries, in both protocol versions.
export interface VotifierVote {
  serviceName: string
  username: string
  address: string // the voter's address; "0.0.0.0" when unknown
  timestamp: number // milliseconds since the epoch
}

export interface VotifierTimeouts {
  connectMs: number // the lookup of the host and the TCP handshake together
  // What the lookup left of connectMs for the handshake (pushVote); all of it when absent.
  handshakeMs?: number
  readMs: number // per wait: for the greeting, then for the v2 answer
}

// The checked address to connect to (from resolveTarget) and the names the owner knows it by.
export interface VotifierTarget {
  host: string
  address: string
  port: number
}

export interface VotifierConnection {
  // One line (up to "\n", without it): the greeting. A listener that sends more than maxBytes
  // without a newline is not a Votifier listener.
  readLine(what: string, maxBytes: number): Promise<string>
  // The v2 answer: up to "\n" (NuVotifier ends it with "\r\n"), a whole JSON object without a
  // line end (a listener that then resets the connection) or, for older listeners that write bare
  // JSON and close, up to the end of the stream.
  readAnswer(): Promise<string>
  write(bytes: Uint8Array): Promise<void>
  // Half-closes our side and waits for the listener to close its own (NuVotifier closes once it
  // has read a v1 block). True when it did within the read timeout; a reset is a failure.
  finish(): Promise<boolean>
  close(): void
}

// The connection was never made (refused, unreachable, no handshake in time): nothing was sent, so
// another address of the host may be tried.
export class ConnectFailure extends DeliveryFailure {}

const label = (t: VotifierTarget) => `${t.host}:${t.port}${t.host === t.address ? '' : ` (${t.address})`}`

function socketFailure(t: VotifierTarget, e: NodeJS.ErrnoException): DeliveryFailure {
  switch (e.code) {
    case 'ECONNREFUSED': return new DeliveryFailure(`connection refused by ${label(t)}: nothing listens on that port (is the Votifier listener running, and is the port right?)`)
    case 'ECONNRESET':
    case 'EPIPE': return new DeliveryFailure(`the listener at ${label(t)} reset the connection`)
    case 'EHOSTUNREACH':
    case 'ENETUNREACH': return new DeliveryFailure(`no route to ${label(t)} (host or network unreachable)`)
    default: return new DeliveryFailure(`connection to ${label(t)} failed: ${e.message}`)
  }
}

// Opens a TCP connection to the checked address (never a host name: no second DNS lookup) and
// buffers what arrives, since a greeting or an answer may come split across reads.
export function openVotifierConnection(t: VotifierTarget, timeouts: VotifierTimeouts): Promise<VotifierConnection> {
  const socket = new (nodeNet().Socket)()
  let buffer = Buffer.alloc(0)
  let ended = false
  let failure: DeliveryFailure | null = null
  let changed: (() => void) | null = null
  const poke = () => { const f = changed; changed = null; f?.() }

  socket.on('data', (chunk: Buffer) => { buffer = Buffer.concat([buffer, chunk]); poke() })
  socket.on('end', () => { ended = true; poke() })
  socket.on('close', () => { ended = true; poke() })
  socket.on('error', (e) => { failure ??= socketFailure(t, e); poke() })

  // Waits until `done` finds what it needs in the buffer, the stream ends, an error occurs, or the
  // read timeout passes (the socket is then closed: a silent listener never holds a slot).
  function waitFor<T>(what: string, done: () => T | undefined, onEnd: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        changed = null
        socket.destroy()
        reject(new DeliveryFailure(`connected to ${label(t)}, but no ${what} came within ${seconds(timeouts.readMs)} (timed out)`))
      }, timeouts.readMs)
      const check = () => {
        try {
          const found = done()
          if (found !== undefined) return finish(() => resolve(found))
          if (failure) return finish(() => reject(failure))
          if (ended) return finish(() => resolve(onEnd()))
          changed = check
        } catch (e) {
          finish(() => reject(e))
        }
      }
      const finish = (fn: () => void) => { clearTimeout(timer); fn() }
      check()
    })
  }

  const takeLine = (maxBytes: number, what: string) => () => {
    const nl = buffer.indexOf(0x0a)
    if (nl < 0) {
      if (buffer.length > maxBytes) throw new DeliveryFailure(`${label(t)} sent ${buffer.length} bytes without a line end instead of a Votifier ${what}: is this the Votifier port?`)
      return undefined
    }
    const line = buffer.subarray(0, nl).toString('utf8').replace(/\r$/, '')
    buffer = buffer.subarray(nl + 1)
    return line
  }

  // The v2 answer: a line, or already a whole JSON object without its line end. A listener may
  // write that and reset the connection at once; the answer it gave still counts (failing would
  // retry a vote that arrived, and the listener would get it twice). An object is complete when it
  // parses: no longer JSON text begins with a whole object.
  const takeLineAnswer = takeLine(64 * 1024, 'answer')
  const takeAnswer = () => {
    const line = takeLineAnswer()
    if (line !== undefined) return line
    const text = buffer.toString('utf8').trim()
    if (!text.startsWith('{') || !text.endsWith('}')) return undefined
    try {
      JSON.parse(text)
    } catch {
      return undefined
    }
    buffer = Buffer.alloc(0)
    return text
  }

  const connection: VotifierConnection = {
    readLine: (what, maxBytes) => waitFor(what, takeLine(maxBytes, what), () => {
      throw new DeliveryFailure(`${label(t)} closed the connection before sending its ${what}`)
    }),
    readAnswer: () => waitFor('answer', takeAnswer, () => {
      if (!buffer.length) throw new DeliveryFailure(`the vote was sent, but ${label(t)} closed the connection without an answer (v2 listeners answer {"status":"ok"})`)
      return buffer.toString('utf8').trim()
    }),
    write: (bytes) => new Promise<void>((resolve, reject) => {
      if (failure) return reject(failure)
      socket.write(bytes, (e) => (e ? reject(failure ?? socketFailure(t, e)) : resolve()))
    }),
    finish() {
      socket.end()
      return new Promise<boolean>((resolve, reject) => {
        const timer = setTimeout(() => { changed = null; socket.destroy(); resolve(false) }, timeouts.readMs)
        const check = () => {
          if (failure) { clearTimeout(timer); reject(failure) } else if (ended) { clearTimeout(timer); resolve(true) } else changed = check
        }
        check()
      })
    },
    close: () => { socket.destroy() },
  }

  // The time this address had: with several, its share of the connect time (pushVote).
  const handshakeMs = timeouts.handshakeMs ?? timeouts.connectMs
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new ConnectFailure(`no connection to ${label(t)} within ${seconds(handshakeMs)} (timed out): is the host up and the port open to the internet?`))
    }, handshakeMs)
    socket.once('connect', () => { clearTimeout(timer); resolve(connection) })
    socket.once('error', () => { clearTimeout(timer); reject(new ConnectFailure(failure!.message)) })
    socket.connect({ host: t.address, port: t.port })
  })
}
