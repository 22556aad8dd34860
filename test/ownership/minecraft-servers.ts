import os from 'node:os'
import type { Socket } from 'node:net'
import { freeUdpPort } from '../stats/peers.ts'

// Real Minecraft servers on 127.0.0.1 whose MOTD a test changes while they run, as an owner edits
// server.properties: a minecraft-protocol server (its `motd` is read at each ping) and a
// bedrock-protocol server (with `advertisementFn`, as the pinger tests start them).

export interface MotdServer {
  port: number
  setMotd(motd: string): void
  close(): Promise<void>
}

export async function javaMotdServer(motd: string): Promise<MotdServer> {
  const mc = require('minecraft-protocol')
  const server = mc.createServer({ host: '127.0.0.1', port: 0, version: '1.21.4', 'online-mode': false, motd, maxPlayers: 20, hideErrors: true })
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    port: server.socketServer.address().port,
    setMotd: (text) => { server.motd = text },
    close: () => new Promise<void>((resolve) => {
      for (const c of Object.values(server.clients) as { socket: Socket }[]) c.socket.destroy()
      server.socketServer.close(() => resolve())
    }),
  }
}

export async function bedrockMotdServer(motd: string, levelName: string): Promise<MotdServer> {
  // bedrock-protocol's native RakNet only ships a linux-5 build, chosen by kernel major version.
  ;(os as { release: () => string }).release = () => '5.15.0'
  const bp = require('bedrock-protocol')
  const port = await freeUdpPort()
  const version = '1.21.50'
  const adv = new bp.ServerAdvertisement({ motd, levelName, playersOnline: 0, playersMax: 10 }, port, version)
  const server = new bp.Server({ host: '127.0.0.1', port, version, offline: true, maxPlayers: 10, advertisementFn: () => adv })
  // Resolves once RakNet has bound the port: from then on it answers unconnected pings.
  await server.listen()
  // RakNet keeps a copy of the advertisement, refreshed every second: refresh it at once.
  const setMotd = (text: string) => {
    adv.motd = text
    server.raknet.updateAdvertisement()
  }
  return { port, setMotd, close: async () => { server.close() } }
}
