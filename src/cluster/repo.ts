// The state several votelist instances share through their PostgreSQL database, beside the data:
// rate-limit counters, the claims of scheduled tasks, and notifications between instances. A
// SQLite site has one process, which keeps all of it in memory: its store has no cluster.

export interface LimitHit {
  name: string // which limit: keyed, public, login…
  key: string // what it counts: an API key's id, a client address, an account
  now: number
  limit: number
  windowMs: number
  count: boolean // false: only tell (a peek)
}

export interface LimitCount {
  allowed: boolean
  used: number // in the window, this request included when counted
  freesAt: number // when the oldest counted request leaves the window
}

export interface TaskClaim {
  task: string
  period: number // the start of the period, in milliseconds
  holder: string // the instance
  now: number
}

export interface ClusterRepo {
  // Decides and counts one request, atomically across instances.
  hitLimit(h: LimitHit): Promise<LimitCount>
  // Forgets the counters whose requests have all left their window; returns how many.
  purgeLimits(now: number): Promise<number>
  // True for the one instance that takes the task's run of this period; false when another
  // instance already did (or a later period was claimed).
  claimTask(c: TaskClaim): Promise<boolean>
  finishTask(c: TaskClaim): Promise<void>
  // Sends `payload` to every instance listening on `channel`, this one included.
  notify(channel: string, payload: string): Promise<void>
  // Calls `onPayload` for each notification; `onListening` once listening, and again after the
  // connection was lost and made again (notifications sent meanwhile were missed).
  listen(channel: string, onPayload: (payload: string) => void, onListening: () => void): Promise<{ stop(): Promise<void> }>
}
