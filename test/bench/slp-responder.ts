// A minimal Java status responder listening on N ports of 127.0.0.1, for the ping-round benchmark:
// answers the status request with a fixed status and the ping with its pong. Prints the ports as
// one JSON line on stdout, then serves until killed.
import { createServer, type Socket } from 'node:net'
import { frame, readPacket, writeVarInt } from '../../src/ping/java-ping.ts'

const count = Number(process.argv[2] ?? 2000)
const json = Buffer.from(JSON.stringify({ version: { name: '1.21.4', protocol: 769 }, players: { online: 42, max: 100 }, description: { text: 'bench' } }))
const status = Uint8Array.from(frame([0x00, ...writeVarInt(json.length), ...json]))

function serve(socket: Socket) {
  let received = Buffer.alloc(0)
  socket.on('error', () => {})
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk])
    for (;;) {
      let got
      try { got = readPacket(received) } catch { socket.destroy(); return }
      if (!got) return
      received = received.subarray(got.used)
      const { id, data } = got.value
      if (id === 0x00 && data.length === 0) socket.write(status)
      else if (id === 0x01) socket.end(Uint8Array.from(frame([0x01, ...data])))
    }
  })
}

const ports: number[] = []
for (let i = 0; i < count; i++) {
  const server = createServer(serve)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 1024, resolve))
  ports.push((server.address() as { port: number }).port)
}
process.stdout.write(JSON.stringify(ports) + '\n')
