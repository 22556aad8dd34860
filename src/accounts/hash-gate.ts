import { ApiError } from '../http/errors.ts'

// Bounds the password hashes computed at once. argon2id takes ~64 MiB and tens of milliseconds
// per hash, so a burst of logins could otherwise exhaust memory and starve every other request.
// Up to `concurrency` run; up to `maxWaiting` more wait their turn (a short burst is absorbed);
// beyond that the request is refused at once with 429 rather than queued without bound.
export class HashGate {
  private running = 0
  private waiting: (() => void)[] = []

  constructor(readonly concurrency: number, readonly maxWaiting = concurrency * 8) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++
    else if (this.waiting.length < this.maxWaiting) await new Promise<void>((go) => this.waiting.push(go))
    else throw new ApiError(429, 'RATE_LIMITED', 'too many logins at once; retry in a second', {}, { 'Retry-After': '1' })
    try {
      return await work()
    } finally {
      // A waiter inherits the slot, so `running` never overshoots.
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }

  get load() {
    return { running: this.running, waiting: this.waiting.length }
  }
}
