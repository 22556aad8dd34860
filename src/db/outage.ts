// A database that cannot be reached for a moment (PostgreSQL restarting, failing over, a network
// cut) is not a write that failed for what it asked: the few writes whose loss would leave a
// delivery's job leased by a live instance until its lease ends (and its attempt sent again then)
// are made again meanwhile. SQLite's errors never match: on SQLite these run once, as before.

// The statement failed because the database could not be reached or went away (a restart, a
// failover, a network cut), not because of what it asked: the same statement may succeed a moment
// later. SQLite's errors never match.
export function databaseUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  const errno = (e as { errno?: unknown } | null)?.errno
  if (typeof errno === 'string' && (errno.startsWith('08') || errno === '57P01' || errno === '57P02' || errno === '57P03')) return true
  return typeof code === 'string' && (/^ERR_POSTGRES_(CONNECTION|CONNECT|SOCKET)/.test(code) || /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(code))
}

// How long a write whose outcome must not be lost is made again while the database cannot be
// reached (PostgreSQL restarting or failing over) before it fails. A job's lease outlasts its
// longest attempt by a minute: a claim or start written this late, then the attempt, then its
// outcome written this late again still end inside the lease, so that what the outcome settles is
// still this instance's.
export const OUTAGE_RETRY_MS = 20_000

// `write()`, made again (100 ms, then twice as long each time, at most 2 s apart) while it fails
// because the database cannot be reached, for up to `forMs`. Only for writes that can be made again.
export async function throughOutage<T>(write: () => Promise<T>, forMs = OUTAGE_RETRY_MS): Promise<T> {
  const end = performance.now() + forMs
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return await write()
    } catch (e) {
      if (!databaseUnreachable(e) || performance.now() + wait > end) throw e
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
}
