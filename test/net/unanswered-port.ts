// A loopback port where a TCP connect never completes: what a host behind a firewall that drops
// packets looks like, without leaving 127.0.0.1. A listener with a backlog of 0 that never
// accepts holds one finished handshake in its queue; once that slot is taken (by us, below), the
// kernel drops every further SYN, so the next connect waits until its own timeout.
// Bun and Node accept every connection themselves, so the listener is a few lines of python3
// (on every machine this project targets).
import { connect, type Socket } from 'node:net'

export interface UnansweredPort {
  port: number
  stop(): void
}

// `at`: another loopback address, or a given port (beside a listener on the same port of 127.0.0.1).
export async function startUnansweredPort(at: { host?: string; port?: number } = {}): Promise<UnansweredPort> {
  const host = at.host ?? '127.0.0.1'
  const listener = Bun.spawn(['python3', '-c', [
    'import socket, sys',
    's = socket.socket()',
    `s.bind(('${host}', ${at.port ?? 0}))`,
    's.listen(0)',
    'print(s.getsockname()[1], flush=True)',
    'sys.stdin.read()', // until the test closes our stdin (or dies)
  ].join('\n')], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' })
  const first = await listener.stdout.getReader().read()
  const port = Number(new TextDecoder().decode(first.value).trim())
  if (!Number.isInteger(port) || port <= 0) throw new Error('the python3 listener did not start')
  // Take the only slot of the accept queue.
  const filler: Socket = await new Promise((resolve, reject) => {
    const s = connect(port, host)
    s.once('connect', () => resolve(s))
    s.once('error', reject)
  })
  return {
    port,
    stop() {
      filler.destroy()
      listener.kill()
    },
  }
}
