// A Votifier listener for tests, written from the protocol as NuVotifier implements it (and
// checked against minecraft-server-util's clients): greeting "VOTIFIER 2 <challenge>\n"; a v2
// vote is 0x733A, a uint16 length and a JSON message {payload, signature} answered with one JSON
// line; anything else is a v1 vote, one 256-byte RSA block, never answered.
import type { Socket } from 'bun'
import { createHmac, generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto'
import NodeRSA from 'node-rsa'
import { arrivals } from '../arrivals.ts'

export interface ReceivedVote {
  protocol: 'v1' | 'v2'
  serviceName: string
  username: string
  address: string
  timestamp: string
}

export interface ReceiverOptions {
  tokens?: Record<string, string> // v2 tokens by service name; "default" answers any service
  privateKeyPem?: string // v1: the listener's private key (PKCS#1 PEM)
  greeting?: 'v2' | 'v1-only' | 'none' | 'split' | 'not-votifier'
  splitAnswer?: boolean
  holdAnswers?: Promise<unknown> // answers wait for this (a listener stuck until the test lets go)
  answerAfterMs?: () => number // a slow listener: each answer waits this long after the vote arrived
  port?: number // a given port (a listener restarted where the site expects it); default: any free one
}

interface Conn {
  buffer: Buffer
  challenge: string
  protocol: 'v1' | 'v2' | null
  done: boolean
}

// A 2048-bit pair as NuVotifier keeps it: rsa/public.key is base64 X.509, the private half PKCS#1.
export function votifierKeyPair(bits = 2048) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits })
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function startVotifierReceiver(opts: ReceiverOptions = {}) {
  const votes = arrivals<ReceivedVote>()
  const arrivedAt: number[] = [] // Date.now() when each vote arrived, in the order of `votes`
  const errors = arrivals<string>()
  let connections = 0
  let open = 0
  let maxOpen = 0
  // Bun refuses PKCS#1 v1.5 private decryption natively; node-rsa's pure-JS path does it.
  const rsa = opts.privateKeyPem ? new NodeRSA(opts.privateKeyPem, 'pkcs1-private-pem', { environment: 'browser', encryptionScheme: 'pkcs1' }) : null

  const record = (v: ReceivedVote) => {
    arrivedAt.push(Date.now())
    votes.push(v)
  }

  async function answer(s: Socket<Conn>, body: object) {
    const line = Buffer.from(JSON.stringify(body) + '\r\n')
    await opts.holdAnswers
    if (opts.answerAfterMs) await sleep(opts.answerAfterMs())
    if (opts.splitAnswer) {
      s.write(line.subarray(0, 5))
      await sleep(20)
      s.write(line.subarray(5))
    } else s.write(line)
    s.end()
  }

  function fail(s: Socket<Conn>, cause: string, error: string) {
    errors.push(`${cause}: ${error}`)
    s.data.done = true
    if (s.data.protocol === 'v2') void answer(s, { status: 'error', cause, error })
    else s.end()
  }

  function v2(s: Socket<Conn>, text: string) {
    const message = JSON.parse(text) as { payload: string; signature: string }
    const payload = JSON.parse(message.payload)
    if (payload.challenge !== s.data.challenge) return fail(s, 'CorruptedFrameException', 'Challenge is not valid')
    const token = opts.tokens?.[payload.serviceName] ?? opts.tokens?.default
    if (token === undefined) return fail(s, 'RuntimeException', `Unknown service '${payload.serviceName}'`)
    const expected = createHmac('sha256', token).update(Buffer.from(message.payload, 'utf8')).digest()
    const given = Buffer.from(message.signature, 'base64')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail(s, 'CorruptedFrameException', 'Signature is not valid (invalid token?)')
    if (payload.username.length > 16) return fail(s, 'CorruptedFrameException', 'Username too long')
    s.data.done = true
    record({ protocol: 'v2', serviceName: payload.serviceName, username: payload.username, address: payload.address, timestamp: String(payload.timestamp) })
    void answer(s, { status: 'ok' })
  }

  function v1(s: Socket<Conn>, block: Buffer) {
    let fields: string[]
    try {
      fields = Buffer.from(rsa!.decrypt(block)).toString('utf8').split('\n')
    } catch {
      return fail(s, 'CorruptedFrameException', 'Could not decrypt data (is your key correct?)')
    }
    if (fields.length < 5 || fields[0] !== 'VOTE') return fail(s, 'CorruptedFrameException', 'VOTE opcode not found')
    s.data.done = true
    record({ protocol: 'v1', serviceName: fields[1], username: fields[2], address: fields[3], timestamp: fields[4] })
    s.end()
  }

  function consume(s: Socket<Conn>) {
    const c = s.data
    if (c.done || c.buffer.length < 2) return
    c.protocol ??= c.buffer.readUInt16BE(0) === 0x733a ? 'v2' : 'v1'
    try {
      if (c.protocol === 'v2') {
        if (c.buffer.length < 4) return
        const length = c.buffer.readUInt16BE(2)
        if (length + 4 > 1024) return fail(s, 'TooLongFrameException', `frame of ${length + 4} bytes`)
        if (c.buffer.length >= 4 + length) v2(s, c.buffer.subarray(4, 4 + length).toString('utf8'))
      } else if (c.buffer.length >= 256) {
        if (!rsa) return fail(s, 'CorruptedFrameException', 'v1 is not enabled')
        v1(s, c.buffer.subarray(0, 256))
      }
    } catch (e) {
      fail(s, 'JsonSyntaxException', (e as Error).message)
    }
  }

  async function greet(s: Socket<Conn>) {
    const line = `VOTIFIER 2 ${s.data.challenge}\n`
    switch (opts.greeting ?? 'v2') {
      case 'v2': s.write(line); break
      case 'v1-only': s.write('VOTIFIER 1.9\n'); break
      case 'not-votifier': s.write('SSH-2.0-OpenSSH_9.6\r\n'); break
      case 'none': break
      case 'split':
        for (const part of [line.slice(0, 3), line.slice(3, 12), line.slice(12)]) {
          s.write(part)
          await sleep(25)
        }
    }
  }

  const listener = Bun.listen<Conn>({
    hostname: '127.0.0.1',
    port: opts.port ?? 0,
    socket: {
      open(s) {
        connections++
        maxOpen = Math.max(maxOpen, ++open)
        s.data = { buffer: Buffer.alloc(0), challenge: randomBytes(16).toString('base64url'), protocol: null, done: false }
        void greet(s)
      },
      data(s, chunk) {
        s.data.buffer = Buffer.concat([s.data.buffer, chunk])
        consume(s)
      },
      close() { open-- },
    },
  })

  return {
    port: listener.port,
    votes: votes.items,
    arrivedAt,
    errors: errors.items,
    // Resolves once the listener has refused `n` votes in all.
    waitErrors: errors.until,
    get connections() { return connections },
    get open() { return open },
    get maxOpen() { return maxOpen },
    // Resolves once `n` votes have arrived in all.
    waitVotes: votes.until,
    stop: () => listener.stop(true),
  }
}
export type VotifierReceiver = ReturnType<typeof startVotifierReceiver>
