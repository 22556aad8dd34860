// `work`, unless `ms` pass first: then the error `late()` makes (the timer is cleared either way).
// The work itself is not stopped (a DNS lookup cannot be); whoever waited goes on.
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(late()), ms) })
  return Promise.race([work, expired]).finally(() => clearTimeout(timer))
}
