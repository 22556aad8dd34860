import { nodeNet } from '../lazy-modules.ts'

// A ping failure. `connected` tells whether the TCP connection was established: only then may
// another protocol (the 1.6 legacy ping) get an answer where the modern one did not. `refused`:
// no connection was made and the failure came at once (refused, unreachable), so another address
// of the host may take it.
export class PingError extends Error {
  constructor(message: string, readonly connected = false, readonly refused = false) {
    super(message)
  }
}

export interface Connection {
  write(bytes: Uint8Array): void
  // Waits until `parse` recognises a complete message at the start of what was received; `used`
  // bytes are then consumed. `parse` returns null while the message is incomplete and throws a
  // PingError when the bytes cannot be one.
  read<T>(parse: (received: Buffer) => { value: T; used: number } | null): Promise<T>
}

// Status answers carry at most a 64×64 favicon and a mod list; anything past 1 MiB is not one.
const MAX_RECEIVED = 1 << 20

// Connects to address:port and runs `talk` over the connection; everything (connect included)
// must finish within timeoutMs. The socket is always destroyed afterwards.
export async function tcpExchange<T>(address: string, port: number, timeoutMs: number, talk: (c: Connection) => Promise<T>): Promise<T> {
  const socket = nodeNet().connect({ host: address, port })
  socket.setNoDelay(true)
  let received: Buffer = Buffer.alloc(0)
  let connected = false
  let failure: PingError | null = null
  let wake = () => {}
  const fail = (e: PingError) => {
    failure ??= e
    wake()
  }
  const timer = setTimeout(() => fail(new PingError(connected ? `no answer within ${timeoutMs} ms` : `could not connect within ${timeoutMs} ms`, connected)), timeoutMs)
  socket.on('connect', () => { connected = true; wake() })
  socket.on('data', (chunk: Buffer) => {
    received = received.length ? Buffer.concat([received, chunk]) : chunk
    if (received.length > MAX_RECEIVED) fail(new PingError('the answer is larger than 1 MiB', true))
    wake()
  })
  socket.on('error', (e: NodeJS.ErrnoException) => {
    fail(new PingError(e.code === 'ECONNREFUSED' ? 'connection refused' : `connection failed: ${e.code ?? e.message}`, connected, !connected))
  })
  socket.on('close', () => fail(new PingError(connected ? 'the server closed the connection' : 'connection failed', connected, !connected)))
  const next = () => new Promise<void>((resolve) => { wake = resolve })

  const conn: Connection = {
    write: (bytes) => { socket.write(bytes) },
    async read(parse) {
      for (;;) {
        let got
        try {
          got = parse(received)
        } catch (e) {
          throw e instanceof PingError ? e : new PingError(`invalid answer: ${(e as Error).message}`, true)
        }
        if (got) {
          received = received.subarray(got.used)
          return got.value
        }
        if (failure) throw failure
        await next()
      }
    },
  }
  try {
    while (!connected) {
      if (failure) throw failure
      await next()
    }
    return await talk(conn)
  } finally {
    clearTimeout(timer)
    socket.destroy()
  }
}
