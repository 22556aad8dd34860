import { createSocket } from 'node:dgram'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import os from 'node:os'
import { Resolver } from 'node:dns/promises'
import type { PingDns } from '../../src/ping/pinger.ts'

// Real peers on 127.0.0.1 for the pinger tests: Minecraft servers from npm, plus the misbehaving
// ones a server list meets (refusing, silent, garbage), and a tiny DNS server for SRV records.

export interface Peer { port: number; close(): Promise<void> }

const listening = (server: TcpServer) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))
const closing = (server: TcpServer, sockets: Set<Socket>) => () =>
  new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy()
    server.close(() => resolve())
  })

function tracked(onSocket: (s: Socket) => void) {
  const sockets = new Set<Socket>()
  const server = createTcpServer((s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => {})
    onSocket(s)
  })
  return { server, sockets }
}

// A minecraft-protocol server pinned to `version`, answering the modern ping with the chosen
// counts and a chat-component description, and the 1.6 legacy ping as the library does.
// `modern: false` drops the connection on a modern status request (a pre-1.7 server's behaviour).
// `favicon`: the status's favicon field (a data: URL), changeable while the peer runs.
export async function javaServer(opts: { version?: string; online: number; max: number; motd: unknown; modern?: boolean; legacyMotd?: string; favicon?: string }): Promise<Peer> {
  const mc = require('minecraft-protocol')
  const server = mc.createServer({
    host: '127.0.0.1', port: 0, version: opts.version ?? '1.21.4', 'online-mode': false, maxPlayers: opts.max,
    motd: opts.legacyMotd ?? 'A legacy MOTD', hideErrors: true,
    beforePing: (response: { players: { online: number }; description: unknown; favicon?: string }) => {
      if (opts.modern === false) return false
      response.players.online = opts.online
      response.description = opts.motd
      if (opts.favicon !== undefined) response.favicon = opts.favicon
      return response
    },
  })
  server.playerCount = opts.online
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    port: server.socketServer.address().port,
    close: () => new Promise<void>((resolve) => {
      for (const c of Object.values(server.clients) as { socket: Socket }[]) c.socket.destroy()
      server.socketServer.close(() => resolve())
    }),
  }
}

// bedrock-protocol's native RakNet only ships a linux-5 build chosen by kernel major version.
export async function bedrockServer(opts: { online: number; max: number; motd: string; level: string; version?: string }): Promise<Peer> {
  ;(os as { release: () => string }).release = () => '5.15.0'
  const bp = require('bedrock-protocol')
  const port = await freeUdpPort()
  const version = opts.version ?? '1.21.50'
  const adv = new bp.ServerAdvertisement({ motd: opts.motd, levelName: opts.level, playersOnline: opts.online, playersMax: opts.max }, port, version)
  const server = new bp.Server({ host: '127.0.0.1', port, version, offline: true, maxPlayers: opts.max, advertisementFn: () => adv })
  // Resolves once RakNet has bound the port: from then on it answers unconnected pings.
  await server.listen()
  return { port, close: async () => { server.close() } }
}

export async function freeUdpPort(): Promise<number> {
  const s = createSocket('udp4')
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()))
  const port = s.address().port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

// A port nothing listens on: bound, then closed.
export async function refusedPort(): Promise<number> {
  const { server, sockets } = tracked(() => {})
  const port = await listening(server)
  await closing(server, sockets)()
  return port
}

// Accepts connections and never answers.
export async function silentServer(): Promise<Peer> {
  const { server, sockets } = tracked(() => {})
  return { port: await listening(server), close: closing(server, sockets) }
}

// Answers whatever it receives with `reply`, then closes.
export async function garbageServer(reply: Uint8Array): Promise<Peer> {
  const { server, sockets } = tracked((s) => s.once('data', () => s.end(reply)))
  return { port: await listening(server), close: closing(server, sockets) }
}

// A DNS server on 127.0.0.1 answering SRV and A queries from a table (name → record); any other
// name gets NXDOMAIN. Returns a PingDns that asks only this server.
export async function dnsServer(records: { srv?: Record<string, { target: string; port: number }>; a?: Record<string, string> }): Promise<{ dns: PingDns; close(): Promise<void> }> {
  const sock = createSocket('udp4')
  sock.on('message', (msg, from) => {
    let i = 12
    const labels: string[] = []
    while (msg[i] !== 0) { labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString()); i += msg[i] + 1 }
    const qtype = msg.readUInt16BE(i + 1)
    const question = msg.subarray(12, i + 5)
    const name = labels.join('.').toLowerCase()
    let rdata: Buffer | null = null
    if (qtype === 33 && records.srv?.[name]) {
      const { target, port } = records.srv[name]
      const head = Buffer.alloc(6)
      head.writeUInt16BE(0, 0); head.writeUInt16BE(5, 2); head.writeUInt16BE(port, 4)
      rdata = Buffer.concat([head, ...target.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])])
    } else if (qtype === 1 && records.a?.[name]) {
      rdata = Buffer.from(records.a[name].split('.').map(Number))
    }
    const header = Buffer.alloc(12)
    header.writeUInt16BE(msg.readUInt16BE(0), 0)
    header.writeUInt16BE(rdata ? 0x8180 : 0x8183, 2)
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(rdata ? 1 : 0, 6)
    const parts: Uint8Array[] = [header, question]
    if (rdata) {
      const answer = Buffer.alloc(12)
      answer.writeUInt16BE(0xc00c, 0); answer.writeUInt16BE(qtype, 2); answer.writeUInt16BE(1, 4)
      answer.writeUInt32BE(60, 6); answer.writeUInt16BE(rdata.length, 10)
      parts.push(answer, rdata)
    }
    sock.send(Buffer.concat(parts), from.port, from.address)
  })
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()))
  // It answers every query (NXDOMAIN included): the timeout only runs out if something is wrong.
  const resolver = new Resolver({ timeout: 10_000, tries: 1 })
  resolver.setServers([`127.0.0.1:${sock.address().port}`])
  return {
    dns: {
      resolveSrv: (name) => resolver.resolveSrv(name),
      lookup: async (host) => (await resolver.resolve4(host)).map((address) => ({ address, family: 4 })),
    },
    close: () => new Promise<void>((r) => sock.close(() => r())),
  }
}
