import { afterEach, describe, expect, test } from 'bun:test'
import { createSocket } from 'node:dgram'
import { createServer, type Socket } from 'node:net'
import { RAKNET_MAGIC } from '../../src/ping/bedrock-ping.ts'
import { writeVarInt } from '../../src/ping/java-ping.ts'
import { pingServer } from '../../src/ping/pinger.ts'
import { MAX_TEXT } from '../../src/motd/format.ts'

// Hostile "servers" on 127.0.0.1, speaking just enough of each protocol to be measured as up,
// with answers no real server sends.

const closers: (() => Promise<void>)[] = []
afterEach(async () => { for (const c of closers.splice(0)) await c() })

// A Java server that answers the status request with `status` (then says nothing more).
async function javaResponder(status: unknown): Promise<number> {
  const json = Buffer.from(JSON.stringify(status))
  const packet = Buffer.from([0x00, ...writeVarInt(json.length), ...json])
  const sockets = new Set<Socket>()
  const server = createServer((s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => {})
    s.once('data', () => s.end(Buffer.from([...writeVarInt(packet.length), ...packet])))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  closers.push(() => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()) }))
  return (server.address() as { port: number }).port
}

// A Bedrock server that answers every unconnected ping with a pong carrying `status`.
async function bedrockResponder(status: string): Promise<number> {
  const sock = createSocket('udp4')
  sock.on('message', (msg, from) => {
    const text = Buffer.from(status, 'utf8')
    const pong = Buffer.alloc(35 + text.length)
    pong[0] = 0x1c
    msg.copy(pong, 1, 1, 9) // the ping's time, echoed
    RAKNET_MAGIC.copy(pong, 17)
    pong.writeUInt16BE(text.length, 33)
    text.copy(pong, 35)
    sock.send(pong, from.port, from.address)
  })
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()))
  closers.push(() => new Promise<void>((r) => sock.close(() => r())))
  return sock.address().port
}

const opts = { timeoutMs: 2000, allowPrivate: true }

describe('a MOTD made of line breaks stays within the 1,024 characters kept', () => {
  test('Java status: half a million line breaks in the description', async () => {
    const port = await javaResponder({ version: { name: '1.21.4', protocol: 769 }, players: { online: 3, max: 10 }, description: 'top' + '\n'.repeat(500_000) + 'bottom' })
    const r = await pingServer({ host: '127.0.0.1', port, edition: 'java' }, opts)
    expect(r.online).toBe(true)
    expect(r.motd!.length).toBeLessThanOrEqual(MAX_TEXT)
    expect(r.styledMotd!.length).toBeLessThanOrEqual(MAX_TEXT)
    // What a round writes into server_status for it, every round.
    expect(JSON.stringify(r.styledMotd).length).toBeLessThan(8 * MAX_TEXT)
  })

  test('Bedrock pong: tens of thousands of line breaks in the MOTD', async () => {
    const port = await bedrockResponder(`MCPE;top${'\n'.repeat(60_000)}bottom;766;1.21.50;3;10;1;level;Survival`)
    const r = await pingServer({ host: '127.0.0.1', port, edition: 'bedrock' }, opts)
    expect(r.online).toBe(true)
    expect(r.motd!.length).toBeLessThanOrEqual(MAX_TEXT)
    expect(r.styledMotd!.length).toBeLessThanOrEqual(MAX_TEXT)
  })
})

// The Java status's version name is cut at 64 characters; the other protocols' must be too, as
// the ranking row shows it in a pill.
describe('a pinged version name is at most 64 characters, whatever the protocol', () => {
  test('Bedrock pong with a 5,000-character version', async () => {
    const port = await bedrockResponder(`MCPE;A server;766;${'9.'.repeat(2500)};3;10;1;level;Survival`)
    const r = await pingServer({ host: '127.0.0.1', port, edition: 'bedrock' }, opts)
    expect(r.online).toBe(true)
    expect(r.version!.length).toBeLessThanOrEqual(64)
  })

  test('1.6 legacy answer with a 5,000-character version', async () => {
    // Drops the modern ping (a pre-1.7 server), answers the legacy one with a kick packet.
    const text = ['§1', '74', 'v'.repeat(5000), 'An old server', '3', '10'].join('\0')
    const body = Buffer.from(text, 'utf16le').swap16()
    const sockets = new Set<Socket>()
    const server = createServer((s) => {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
      s.once('data', (d) => {
        if (d[0] !== 0xfe) return void s.destroy()
        const head = Buffer.from([0xff, 0, 0])
        head.writeUInt16BE(text.length, 1)
        s.end(Buffer.concat([head, body]))
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    closers.push(() => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()) }))
    const r = await pingServer({ host: '127.0.0.1', port: (server.address() as { port: number }).port, edition: 'java' }, opts)
    expect(r.online).toBe(true)
    expect(r.version!.length).toBeLessThanOrEqual(64)
  })
})

// PocketMine-MP and Nukkit escape a `;` of the MOTD as `\;` (and drop a trailing `\`) so that the
// advertisement's fields stay in place; the Bedrock client shows the `;`.
describe('a Bedrock MOTD holding a semicolon', () => {
  test('PocketMine-MP\'s escaped `\\;` is part of the MOTD, and the counts after it are read', async () => {
    const port = await bedrockResponder('MCPE;Survival\\; Skyblock\\; PvP;766;1.21.50;7;40;12345;PocketMine-MP;Survival;1;19132;19133;')
    const r = await pingServer({ host: '127.0.0.1', port, edition: 'bedrock' }, opts)
    expect(r).toMatchObject({ online: true, playersOnline: 7, playersMax: 40, version: '1.21.50', motd: 'Survival; Skyblock; PvP\nPocketMine-MP', error: null })
  })

  test('a backslash not before a semicolon is text', async () => {
    const port = await bedrockResponder('MCPE;C:\\Games\\Server;766;1.21.50;7;40;12345;Level;Survival;')
    const r = await pingServer({ host: '127.0.0.1', port, edition: 'bedrock' }, opts)
    expect(r).toMatchObject({ online: true, playersOnline: 7, playersMax: 40, motd: 'C:\\Games\\Server\nLevel' })
  })
})

test('a Bedrock MOTD is read with Bedrock\'s § codes: §g is minecoin gold, §m a colour', async () => {
  const port = await bedrockResponder('MCPE;§gCoins §mRedstone;766;1.21.50;7;40;12345;§lLevel;Survival;')
  const r = await pingServer({ host: '127.0.0.1', port, edition: 'bedrock' }, opts)
  expect(r.styledMotd).toEqual([[{ text: 'Coins ', color: '#ddd605' }, { text: 'Redstone', color: '#971607' }], [{ text: 'Level', bold: true }]])
})
