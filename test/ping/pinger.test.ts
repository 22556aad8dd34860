import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { status, statusBedrock, statusLegacy } from 'minecraft-server-util'
import { createServer } from 'node:net'
import { readVarInt, writeVarInt } from '../../src/ping/java-ping.ts'
import { pingServer, type PingDns } from '../../src/ping/pinger.ts'
import { startUnansweredPort } from '../net/unanswered-port.ts'
import { bedrockServer, dnsServer, freeUdpPort, garbageServer, javaServer, refusedPort, silentServer, type Peer } from '../stats/peers.ts'

// Peers that answer get a deadline they miss only when something is wrong (a busy machine must
// not turn them "down"); the tests of a timeout itself use a short one.
const loopback = { timeoutMs: 10_000, allowPrivate: true }
const theirTimeout = 10_000
const java = (port: number | null, host = '127.0.0.1') => ({ host, port, edition: 'java' as const })

describe('Java server list ping against minecraft-protocol', () => {
  let modern: Peer
  let legacyOnly: Peer
  beforeAll(async () => {
    modern = await javaServer({
      online: 13, max: 120,
      motd: { text: 'Emerald ', extra: [{ text: 'Valley', color: 'green', bold: true }, { text: '\n§aSurvival §land more' }] },
    })
    legacyOnly = await javaServer({ online: 4, max: 50, motd: '', modern: false, legacyMotd: 'Old Times' })
  })
  afterAll(async () => {
    await modern.close()
    await legacyOnly.close()
  })

  test('reads players, version and a chat-component MOTD as plain text, like minecraft-server-util', async () => {
    const mine = await pingServer(java(modern.port), loopback)
    expect(mine).toMatchObject({ online: true, playersOnline: 13, playersMax: 120, version: '1.21.4', motd: 'Emerald Valley\nSurvival and more', error: null })
    expect(mine.latencyMs).toBeGreaterThanOrEqual(0)
    expect(mine.latencyMs).toBeLessThan(loopback.timeoutMs)
    const theirs = await status('127.0.0.1', modern.port, { enableSRV: false, timeout: theirTimeout })
    expect(mine.playersOnline).toBe(theirs.players.online)
    expect(mine.playersMax).toBe(theirs.players.max)
    expect(mine.version).toBe(theirs.version.name)
    expect(mine.motd).toBe(theirs.motd.clean.split('\n').map((l) => l.trim()).join('\n'))
  })

  test('a plain string description is the MOTD', async () => {
    const peer = await javaServer({ online: 0, max: 20, motd: '§6Gold §rtext', version: '1.20.4' })
    try {
      const mine = await pingServer(java(peer.port), loopback)
      expect(mine).toMatchObject({ online: true, playersOnline: 0, playersMax: 20, version: '1.20.4', motd: 'Gold text' })
      const theirs = await status('127.0.0.1', peer.port, { enableSRV: false, timeout: theirTimeout })
      expect(mine.motd).toBe(theirs.motd.clean)
    } finally {
      await peer.close()
    }
  })

  test('falls back to the 1.6 legacy ping when the modern one is dropped', async () => {
    const mine = await pingServer(java(legacyOnly.port), loopback)
    expect(mine).toMatchObject({ online: true, playersOnline: 4, playersMax: 50, version: '1.21.4', motd: 'Old Times', error: null })
    const theirs = await statusLegacy('127.0.0.1', legacyOnly.port, { enableSRV: false, timeout: theirTimeout })
    expect(mine.playersOnline).toBe(theirs.players.online!)
    expect(mine.playersMax).toBe(theirs.players.max!)
    expect(mine.motd).toBe(theirs.motd.clean)
    expect(mine.version).toBe(theirs.version!.name)
  })

  test('the same server also answers the legacy ping directly (a 1.6 client sees the same counts)', async () => {
    const theirs = await statusLegacy('127.0.0.1', modern.port, { enableSRV: false, timeout: theirTimeout })
    const mine = await pingServer(java(modern.port), loopback)
    expect(mine.playersOnline).toBe(theirs.players.online!)
    expect(mine.playersMax).toBe(theirs.players.max!)
  })
})

describe('Bedrock unconnected ping against bedrock-protocol', () => {
  test('reads players, version and both MOTD lines, like minecraft-server-util', async () => {
    const peer = await bedrockServer({ online: 7, max: 42, motd: 'Hello Bedrock', level: 'Skyblock world' })
    try {
      const mine = await pingServer({ host: '127.0.0.1', port: peer.port, edition: 'bedrock' }, loopback)
      expect(mine).toMatchObject({ online: true, playersOnline: 7, playersMax: 42, version: '1.21.50', motd: 'Hello Bedrock\nSkyblock world', error: null })
      const theirs = await statusBedrock('127.0.0.1', peer.port, { enableSRV: false, timeout: theirTimeout })
      expect(mine.playersOnline).toBe(theirs.players.online)
      expect(mine.playersMax).toBe(theirs.players.max)
      expect(mine.version).toBe(theirs.version.name)
      expect(mine.motd).toBe(theirs.motd.clean)
    } finally {
      await peer.close()
    }
  })

  test('no answer on the UDP port is a failed measurement', async () => {
    const port = await freeUdpPort()
    const mine = await pingServer({ host: '127.0.0.1', port, edition: 'bedrock' }, { ...loopback, timeoutMs: 300 })
    expect(mine).toMatchObject({ online: false, playersOnline: 0, playersMax: 0 })
    expect(mine.error).toMatch(/port unreachable|no answer within 300 ms/)
  })
})

describe('servers that do not answer properly are measured as down', () => {
  test('a refused connection: down at once, no legacy attempt', async () => {
    const port = await refusedPort()
    const mine = await pingServer(java(port), loopback)
    expect(mine).toEqual({ online: false, playersOnline: 0, playersMax: 0, version: null, motd: null, styledMotd: null, favicon: null, latencyMs: null, error: 'connection refused' })
    await expect(status('127.0.0.1', port, { enableSRV: false, timeout: 1000 })).rejects.toThrow()
  })

  test('a server that accepts and never answers: down after the timeout of each attempt', async () => {
    const peer = await silentServer()
    try {
      const started = performance.now()
      const mine = await pingServer(java(peer.port), { ...loopback, timeoutMs: 300 })
      const took = performance.now() - started
      expect(mine.online).toBe(false)
      expect(mine.error).toBe('no answer within 300 ms (legacy ping: no answer within 300 ms)')
      // Both attempts waited their whole timeout (a slow machine can only make it later).
      expect(took).toBeGreaterThanOrEqual(550)
      await expect(status('127.0.0.1', peer.port, { enableSRV: false, timeout: 300 })).rejects.toThrow()
    } finally {
      await peer.close()
    }
  })

  test('a host that never completes the TCP handshake: down after one timeout, no legacy attempt', async () => {
    const silent = await startUnansweredPort()
    try {
      const started = performance.now()
      const mine = await pingServer(java(silent.port), { ...loopback, timeoutMs: 300 })
      const took = performance.now() - started
      expect(mine.online).toBe(false)
      expect(mine.error).toBe('could not connect within 300 ms') // and nothing of a legacy attempt
      expect(took).toBeGreaterThanOrEqual(290)
    } finally {
      silent.stop()
    }
  })

  test('a server answering garbage: down with the reason', async () => {
    // An HTTP server on the game port: its reply reads as a frame longer than what follows.
    const http = await garbageServer(Buffer.from('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'))
    // Bytes that cannot start any frame: a VarInt never ends.
    const noise = await garbageServer(Buffer.alloc(64, 0xff))
    try {
      const a = await pingServer(java(http.port), loopback)
      expect(a).toMatchObject({ online: false, playersOnline: 0 })
      expect(a.error).toBe('the server closed the connection (legacy ping: invalid answer: byte 72 instead of the legacy kick packet)')
      const b = await pingServer(java(noise.port), loopback)
      expect(b).toMatchObject({ online: false, playersOnline: 0 })
      expect(b.error).toStartWith('invalid answer: VarInt longer than 5 bytes (legacy ping: ')
      for (const port of [http.port, noise.port]) await expect(status('127.0.0.1', port, { enableSRV: false, timeout: 1000 })).rejects.toThrow()
    } finally {
      await http.close()
      await noise.close()
    }
  })

  test('a status that is JSON but not a status (players.online not a number) is down', async () => {
    const json = Buffer.from(JSON.stringify({ version: { name: 'x', protocol: 1 }, players: { online: 'lots', max: 5 }, description: 'hi' }))
    const packet = Buffer.from([0x00, ...writeVarInt(json.length), ...json])
    const peer = await garbageServer(Buffer.from([...writeVarInt(packet.length), ...packet]))
    try {
      const mine = await pingServer(java(peer.port), loopback)
      expect(mine.online).toBe(false)
      expect(mine.error).toStartWith('invalid answer: players.online is not a number')
    } finally {
      await peer.close()
    }
  })
})

describe('addresses', () => {
  let peer: Peer
  let dns: { dns: PingDns; close(): Promise<void> }
  beforeAll(async () => {
    peer = await javaServer({ online: 3, max: 10, motd: 'via SRV' })
    const refused = await refusedPort()
    dns = await dnsServer({
      srv: {
        '_minecraft._tcp.play.example.test': { target: 'mc1.example.test', port: peer.port },
        '_minecraft._tcp.wrong.example.test': { target: 'mc1.example.test', port: refused },
      },
      a: { 'mc1.example.test': '127.0.0.1', 'wrong.example.test': '127.0.0.1' },
    })
  })
  afterAll(async () => {
    await peer.close()
    await dns.close()
  })

  test('a Java host without a port follows its _minecraft._tcp SRV record', async () => {
    const mine = await pingServer(java(null, 'play.example.test'), { ...loopback, dns: dns.dns })
    expect(mine).toMatchObject({ online: true, playersOnline: 3, playersMax: 10, motd: 'via SRV' })
  })

  test('an explicit port skips the SRV lookup', async () => {
    const mine = await pingServer(java(peer.port, 'wrong.example.test'), { ...loopback, dns: dns.dns })
    expect(mine).toMatchObject({ online: true, playersOnline: 3 })
    const viaSrv = await pingServer(java(null, 'wrong.example.test'), { ...loopback, dns: dns.dns })
    expect(viaSrv).toMatchObject({ online: false, error: 'connection refused' })
  })

  test('an unknown host is down with the reason', async () => {
    const mine = await pingServer(java(null, 'nowhere.example.test'), { ...loopback, dns: dns.dns })
    expect(mine).toMatchObject({ online: false, error: 'nowhere.example.test could not be resolved' })
  })

  // The game's server list (1.17+) follows the SRV record to connect, but its handshake names the
  // address as typed: the host, and 25565 when no port was typed. Proxies route virtual hosts by
  // it (Velocity forced hosts, BungeeCord forced_hosts, DDoS-protection front ends).
  test('the handshake names the address as listed, not the SRV target: the host, and 25565 without a port', async () => {
    const seen: { host: string; port: number }[] = []
    const json = Buffer.from(JSON.stringify({ version: { name: '1.21.4', protocol: 769 }, players: { online: 5, max: 50 }, description: 'vhost' }))
    const packet = Buffer.from([0x00, ...writeVarInt(json.length), ...json])
    const server = createServer((s) => {
      s.on('error', () => {})
      s.once('data', (d: Buffer) => {
        // length, id 0, protocol, host (VarInt length + UTF-8), port (u16), next state
        let at = readVarInt(d, 0)!.size
        at += readVarInt(d, at)!.size
        at += readVarInt(d, at)!.size
        const hostLength = readVarInt(d, at)!
        at += hostLength.size
        seen.push({ host: d.subarray(at, at + hostLength.value).toString(), port: d.readUInt16BE(at + hostLength.value) })
        s.end(Buffer.from([...writeVarInt(packet.length), ...packet]))
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const port = (server.address() as { port: number }).port
    const vhosts = await dnsServer({ srv: { '_minecraft._tcp.vhost.example.test': { target: 'node7.example.test', port } }, a: { 'node7.example.test': '127.0.0.1', 'vhost.example.test': '127.0.0.1' } })
    try {
      expect(await pingServer(java(null, 'vhost.example.test'), { ...loopback, dns: vhosts.dns })).toMatchObject({ online: true, playersOnline: 5, motd: 'vhost' })
      expect(await pingServer(java(port, 'vhost.example.test'), { ...loopback, dns: vhosts.dns })).toMatchObject({ online: true, playersOnline: 5 })
      expect(seen).toEqual([{ host: 'vhost.example.test', port: 25565 }, { host: 'vhost.example.test', port }])
    } finally {
      await vhosts.close()
      server.close()
    }
  })

  // A resolver on a dual-stack machine lists a name's IPv6 address first; the Java client (Java
  // prefers IPv4 addresses) and Bedrock Dedicated Server (IPv6 on port 19133, not 19132) make the
  // IPv4 address the one players reach.
  const dualStack: PingDns = {
    resolveSrv: async () => { throw Object.assign(new Error('no SRV record'), { code: 'ENODATA' }) },
    lookup: async () => [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }],
  }

  test('a name with an IPv6 address listed first, on a Java server listening on IPv4 only, is up', async () => {
    const mine = await pingServer(java(peer.port, 'dual.example.test'), { ...loopback, dns: dualStack })
    expect(mine).toMatchObject({ online: true, playersOnline: 3, playersMax: 10, motd: 'via SRV', error: null })
  })

  test('a name with an IPv6 address listed first, on a Bedrock server answering on IPv4 only, is up', async () => {
    const bedrock = await bedrockServer({ online: 2, max: 8, motd: 'Dual', level: 'World' })
    try {
      const mine = await pingServer({ host: 'dual.example.test', port: bedrock.port, edition: 'bedrock' }, { ...loopback, dns: dualStack })
      expect(mine).toMatchObject({ online: true, playersOnline: 2, playersMax: 8, motd: 'Dual\nWorld', error: null })
    } finally {
      await bedrock.close()
    }
  })

  test('an address that refuses the connection is followed by the next one, IPv6 included', async () => {
    const refused = await refusedPort()
    const twoAddresses: PingDns = { ...dualStack, lookup: async () => [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.1', family: 4 }] }
    expect(await pingServer(java(peer.port, 'two.example.test'), { ...loopback, dns: twoAddresses })).toMatchObject({ online: true, playersOnline: 3 })
    const none = await pingServer(java(refused, 'dual.example.test'), { ...loopback, dns: dualStack })
    expect(none).toMatchObject({ online: false, error: '127.0.0.1: connection refused; ::1: connection refused' })
  })

  test('private and loopback targets are refused unless network.allow_private_targets', async () => {
    const literal = await pingServer(java(peer.port), { timeoutMs: 1000, allowPrivate: false })
    expect(literal).toMatchObject({ online: false, error: '127.0.0.1 resolves to 127.0.0.1, a private or reserved address' })
    const viaSrv = await pingServer(java(null, 'play.example.test'), { timeoutMs: 1000, allowPrivate: false, dns: dns.dns })
    expect(viaSrv).toMatchObject({ online: false, error: 'mc1.example.test resolves to 127.0.0.1, a private or reserved address' })
    const bedrock = await pingServer({ host: '::1', port: 19132, edition: 'bedrock' }, { timeoutMs: 1000, allowPrivate: false })
    expect(bedrock.error).toBe('::1 resolves to ::1, a private or reserved address')
  })
})
