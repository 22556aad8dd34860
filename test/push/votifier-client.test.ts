import { afterEach, describe, expect, test } from 'bun:test'
import { sendLegacyVote, sendVote } from 'minecraft-server-util'
import { createServer, type AddressInfo } from 'node:net'
import { DeliveryFailure } from '../../src/net/guard.ts'
import { pushVote, type VotifierListener } from '../../src/push/push-vote.ts'
import { sendVotifierV1 } from '../../src/push/votifier-v1.ts'
import { sendVotifierV2 } from '../../src/push/votifier-v2.ts'
import type { VotifierVote } from '../../src/push/votifier-connection.ts'
import { freePort } from '../deliveries/setup.ts'
import { startUnansweredPort } from '../net/unanswered-port.ts'
import { startVotifierReceiver, votifierKeyPair, type ReceiverOptions, type VotifierReceiver } from './votifier-receiver.ts'

const keys = votifierKeyPair()
// Listeners that answer get deadlines they miss only when something is wrong (a busy machine
// must not fail a delivery test); the tests of a timeout itself use a short one.
const timeouts = { connectMs: 10_000, readMs: 10_000 }
const shortRead = { connectMs: 10_000, readMs: 300 }
const vote: VotifierVote = { serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7', timestamp: 1795000000123 }
const running: VotifierReceiver[] = []
afterEach(() => { for (const r of running.splice(0)) r.stop() })

function receiver(opts: ReceiverOptions = {}) {
  const r = startVotifierReceiver({ tokens: { MyServerList: 'tok-123' }, privateKeyPem: keys.privateKeyPem, ...opts })
  running.push(r)
  return r
}
const at = (r: { port: number }) => ({ host: '127.0.0.1', address: '127.0.0.1', port: r.port })

async function failure(p: Promise<unknown>): Promise<DeliveryFailure> {
  try { await p } catch (e) { if (e instanceof DeliveryFailure) return e; throw e }
  throw new Error('expected a DeliveryFailure')
}

describe('the test Votifier receiver agrees with minecraft-server-util', () => {
  test('sendVote (v2) and sendLegacyVote (v1) are received; a wrong token is refused', async () => {
    const r = receiver()
    await sendVote('127.0.0.1', r.port, { token: 'tok-123', username: 'Steve', serviceName: 'MyServerList', address: '203.0.113.7', timestamp: 1 })
    await sendLegacyVote('127.0.0.1', r.port, { key: keys.publicKey, username: 'Alex', serviceName: 'MyServerList', address: '203.0.113.8', timestamp: 2 })
    await r.waitVotes(2)
    expect(r.votes).toEqual([
      { protocol: 'v2', serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7', timestamp: '1' },
      { protocol: 'v1', serviceName: 'MyServerList', username: 'Alex', address: '203.0.113.8', timestamp: '2' },
    ])
    await expect(sendVote('127.0.0.1', r.port, { token: 'nope', username: 'Steve', serviceName: 'MyServerList', timestamp: 3 })).rejects.toThrow('Signature is not valid')
    expect(r.votes.length).toBe(2)
  })
})

describe('Votifier v2 client', () => {
  test('delivers the vote with the configured service name, and the listener acknowledges it', async () => {
    const r = receiver()
    await sendVotifierV2(at(r), 'tok-123', vote, timeouts)
    expect(r.votes).toEqual([{ protocol: 'v2', serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7', timestamp: '1795000000123' }])
  })

  test('a wrong token: the listener\'s cause and error are reported, with what to fix', async () => {
    const r = receiver()
    const f = await failure(sendVotifierV2(at(r), 'wrong-token', vote, timeouts))
    expect(f.message).toContain('the listener refused the vote: CorruptedFrameException: Signature is not valid (invalid token?)')
    expect(f.message).toContain('wrong token')
    expect(r.votes).toEqual([])
  })

  test('a service name the listener does not know is reported with the line to add', async () => {
    const r = receiver()
    const f = await failure(sendVotifierV2(at(r), 'tok-123', { ...vote, serviceName: 'OtherList' }, timeouts))
    expect(f.message).toContain("RuntimeException: Unknown service 'OtherList'")
    expect(f.message).toContain('"OtherList: <token>"')
  })

  test('greeting and answer split across reads', async () => {
    const r = receiver({ greeting: 'split', splitAnswer: true })
    await sendVotifierV2(at(r), 'tok-123', vote, timeouts)
    expect(r.votes.length).toBe(1)
  })

  test('an answer without a line end followed by a reset is taken: the vote arrived, and a retry would send it twice', async () => {
    // A raw listener: greets, reads the frame, writes {"status":"ok"} with no line end and resets.
    const frames: Buffer[] = []
    const listener = createServer((socket) => {
      socket.write('VOTIFIER 2.9 c0ffee\n')
      socket.once('data', (frame: Buffer) => {
        frames.push(frame)
        socket.write('{"status":"ok"}', () => socket.resetAndDestroy())
      })
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    try {
      const port = (listener.address() as AddressInfo).port
      await sendVotifierV2({ host: '127.0.0.1', address: '127.0.0.1', port }, 'tok-123', vote, timeouts)
      expect(frames.length).toBe(1)
      expect(frames[0].readUInt16BE(0)).toBe(0x733a)
    } finally {
      listener.close()
    }
  })

  test('non-ASCII names: the frame length counts bytes, and the signature covers those bytes', async () => {
    const r = receiver()
    const username = 'Zoë_Ŝtéve_名前'
    await sendVotifierV2(at(r), 'tok-123', { ...vote, username }, timeouts)
    expect(r.votes[0].username).toBe(username)
    expect(Buffer.byteLength(username)).toBeGreaterThan(username.length)
  })

  test('greeting never sent: a bounded wait, then a timeout error', async () => {
    const r = receiver({ greeting: 'none' })
    const f = await failure(sendVotifierV2(at(r), 'tok-123', vote, shortRead))
    expect(f.message).toContain('no greeting came within 0.3 s (timed out)')
  })

  test('a host that never completes the TCP handshake: the connect timeout, with what to check', async () => {
    const silent = await startUnansweredPort()
    try {
      const started = performance.now()
      const f = await failure(sendVotifierV2({ host: 'mc.example.net', address: '127.0.0.1', port: silent.port }, 'tok-123', vote, { connectMs: 400, readMs: 5000 }))
      const waited = performance.now() - started
      expect(f.message).toBe(`no connection to mc.example.net:${silent.port} (127.0.0.1) within 0.4 s (timed out): is the host up and the port open to the internet?`)
      // Not before its time (a slow machine can only make it later).
      expect(waited).toBeGreaterThanOrEqual(390)
    } finally {
      silent.stop()
    }
  })

  test('an answer that never comes is a timeout too', async () => {
    const r = receiver({ holdAnswers: new Promise(() => {}) })
    const f = await failure(sendVotifierV2(at(r), 'tok-123', vote, shortRead))
    expect(f.message).toContain('no answer came within 0.3 s')
  })

  test('refused port, a v1-only listener, and something that is not Votifier', async () => {
    const refused = await failure(sendVotifierV2({ host: 'vote.example.net', address: '127.0.0.1', port: freePort() }, 'tok-123', vote, timeouts))
    expect(refused.message).toMatch(/^connection refused by vote\.example\.net:\d+ \(127\.0\.0\.1\)/)
    const v1only = await failure(sendVotifierV2(at(receiver({ greeting: 'v1-only' })), 'tok-123', vote, timeouts))
    expect(v1only.message).toContain('speaks only v1')
    const ssh = await failure(sendVotifierV2(at(receiver({ greeting: 'not-votifier' })), 'tok-123', vote, timeouts))
    expect(ssh.message).toContain('is not a Votifier listener: it greeted with "SSH-2.0-OpenSSH_9.6"')
  })

  test('a listener that resets the connection', async () => {
    const l = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open(s) { s.write('VOTIFIER 2 abc\n') }, data(s) { s.terminate() } } })
    try {
      const f = await failure(sendVotifierV2({ host: '127.0.0.1', address: '127.0.0.1', port: l.port }, 'tok-123', vote, timeouts))
      expect(f.message).toMatch(/reset the connection|closed the connection without an answer/)
    } finally {
      l.stop(true)
    }
  })
})

describe('Votifier v2 answers from a broken listener', () => {
  // A listener that greets, reads the vote and answers `answer` (then closes).
  async function answered(answer: string) {
    const l = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open(s) { s.write('VOTIFIER 2 abc\n') }, data(s) { s.end(answer) } } })
    try {
      return await failure(sendVotifierV2({ host: '127.0.0.1', address: '127.0.0.1', port: l.port }, 'tok-123', vote, timeouts))
    } finally {
      l.stop(true)
    }
  }

  test('an error without a cause or an error text says so, instead of an empty "error: "', async () => {
    expect((await answered('{"status":"error"}\r\n')).message).toBe('the listener refused the vote without saying why (its answer: {"status":"error"})')
  })

  test('a cause or error that is not text is shown as JSON, not as [object Object]', async () => {
    expect((await answered('{"status":"error","cause":{"a":1},"error":["x"]}\r\n')).message).toBe('the listener refused the vote: {"a":1}: ["x"]')
  })

  test('an error text of tens of kilobytes is cut: the listener does not choose the size of the attempt\'s row', async () => {
    const f = await answered(`{"status":"error","cause":"CorruptedFrameException","error":"${'x'.repeat(60_000)}"}\r\n`)
    expect(f.message).toBe(`the listener refused the vote: CorruptedFrameException: ${'x'.repeat(200)}…`)
  })
})

describe('Votifier v1 client', () => {
  test('sends one 256-byte block the listener decrypts, with the configured service name', async () => {
    const r = receiver()
    await sendVotifierV1(at(r), keys.publicKey, vote, timeouts)
    await r.waitVotes(1)
    expect(r.votes).toEqual([{ protocol: 'v1', serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7', timestamp: '1795000000123' }])
  })

  test('split greeting and non-ASCII names', async () => {
    const r = receiver({ greeting: 'split' })
    await sendVotifierV1(at(r), keys.publicKey, { ...vote, username: 'Zoë_名前' }, timeouts)
    await r.waitVotes(1)
    expect(r.votes[0].username).toBe('Zoë_名前')
  })

  test('a wrong key: v1 has no acknowledgement, so the send completes but the listener cannot decrypt', async () => {
    const r = receiver()
    await sendVotifierV1(at(r), votifierKeyPair().publicKey, vote, timeouts)
    await r.waitErrors(1)
    expect(r.votes).toEqual([])
    expect(r.errors).toEqual(['CorruptedFrameException: Could not decrypt data (is your key correct?)'])
  })

  test('only 2048-bit keys: other sizes fail as a bad key before any connection', async () => {
    const r = receiver()
    for (const bits of [1024, 4096]) {
      const f = await failure(sendVotifierV1(at(r), votifierKeyPair(bits).publicKey, vote, timeouts))
      expect(f.message).toBe(`bad key: the stored public key is ${bits}-bit; Votifier needs the listener's 2048-bit rsa/public.key`)
    }
    const garbage = await failure(sendVotifierV1(at(r), 'AAAA', vote, timeouts))
    expect(garbage.message).toContain('bad key')
    expect(r.connections).toBe(0)
  })

  test('greeting never sent: timeout', async () => {
    const f = await failure(sendVotifierV1(at(receiver({ greeting: 'none' })), keys.publicKey, vote, shortRead))
    expect(f.message).toContain('no greeting came within 0.3 s (timed out)')
  })
})

describe('pushVote: the send-time target check', () => {
  const settings = (port: number, host = '127.0.0.1'): VotifierListener => ({
    host, port, protocol: 'v2', publicKey: null, token: 'tok-123',
  })

  test('connects to the checked address of the host name (no second lookup)', async () => {
    const r = receiver()
    const asked: string[] = []
    const lookup = async (host: string) => { asked.push(host); return [{ address: '127.0.0.1', family: 4 }] }
    await pushVote(settings(r.port, 'mc.example.org'), vote, { allowPrivate: true, lookup, timeouts })
    expect(asked).toEqual(['mc.example.org'])
    expect(r.votes.length).toBe(1)
  })

  test('a host with an IPv6 address the listener does not listen on (NuVotifier binds 0.0.0.0 by default): the next address gets the vote', async () => {
    const r = receiver() // listens on 127.0.0.1 only
    const lookup = async () => [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]
    await pushVote(settings(r.port, 'mc.example.org'), vote, { allowPrivate: true, lookup, timeouts })
    expect(r.votes.map((v) => v.username)).toEqual(['Steve'])
    // Every address refusing: each is named, in the order tried.
    const closed = freePort()
    const f = await failure(pushVote(settings(closed, 'mc.example.org'), vote, { allowPrivate: true, lookup, timeouts }))
    expect(f.message).toBe(`connection refused by mc.example.org:${closed} (::1): nothing listens on that port (is the Votifier listener running, and is the port right?); `
      + `connection refused by mc.example.org:${closed} (127.0.0.1): nothing listens on that port (is the Votifier listener running, and is the port right?)`)
  })

  test('a first address that drops the handshake does not take the whole connect time: the next address still gets the vote', async () => {
    const r = receiver() // on 127.0.0.1
    const silent = await startUnansweredPort({ host: '127.0.0.2', port: r.port })
    try {
      const lookup = async () => [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.1', family: 4 }]
      await pushVote(settings(r.port, 'mc.example.org'), vote, { allowPrivate: true, lookup, timeouts: { connectMs: 3000, readMs: 10_000 } })
      expect(r.votes.map((v) => v.username)).toEqual(['Steve'])
    } finally {
      silent.stop()
    }
  })

  test('an address that drops the handshake is said to have had its share of the connect time, not all of it', async () => {
    const silent = await startUnansweredPort({ host: '127.0.0.2' })
    try {
      // Two addresses: 1 s of connect time, half of it each. Nothing listens on 127.0.0.3.
      const lookup = async () => [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.3', family: 4 }]
      const f = await failure(pushVote(settings(silent.port, 'mc.example.org'), vote, { allowPrivate: true, lookup, timeouts: { connectMs: 1000, readMs: 10_000 } }))
      expect(f.message).toBe(`no connection to mc.example.org:${silent.port} (127.0.0.2) within 0.5 s (timed out): is the host up and the port open to the internet?; `
        + `connection refused by mc.example.org:${silent.port} (127.0.0.3): nothing listens on that port (is the Votifier listener running, and is the port right?)`)
    } finally {
      silent.stop()
    }
  })

  test('unknown host, and private targets refused unless allowed', async () => {
    const r = receiver()
    const nx = async () => { throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) }
    const dns = await failure(pushVote(settings(r.port, 'no-such-host.example'), vote, { allowPrivate: true, lookup: nx, timeouts }))
    expect(dns.message).toBe('DNS failure: no-such-host.example could not be resolved (check the host name)')
    const priv = await failure(pushVote(settings(r.port), vote, { allowPrivate: false, timeouts }))
    expect(priv.message).toContain('private target refused: 127.0.0.1 resolves to 127.0.0.1, a private or reserved address')
    const rebind = await failure(pushVote(settings(r.port, 'rebind.example'), vote, { allowPrivate: false, lookup: async () => [{ address: '::ffff:10.0.0.1', family: 6 }], timeouts }))
    expect(rebind.message).toContain('private target refused')
    expect(r.connections).toBe(0)
  })

  test('a resolver that never answers fails the push within the connect time limit, with what to check', async () => {
    const r = receiver()
    const asked: string[] = []
    const silent = (host: string) => { asked.push(host); return new Promise<never>(() => {}) }
    const f = await failure(pushVote(settings(r.port, 'mc.example.org'), vote, { allowPrivate: true, lookup: silent, timeouts: { connectMs: 300, readMs: 10_000 } }))
    expect(f.message).toBe('DNS failure: no answer for mc.example.org within 0.3 s (timed out): check the host name, or this machine\'s DNS resolver')
    expect(asked).toEqual(['mc.example.org'])
    expect(r.connections).toBe(0)
  })
})
