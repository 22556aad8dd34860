// Every component reads time through a Clock so tests can move time without sleeping.
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

export interface ManualClock extends Clock {
  set(ms: number): void
  advance(ms: number): void
}

export function manualClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): ManualClock {
  let t = start
  return {
    now: () => t,
    set: (ms) => { t = ms },
    advance: (ms) => { t += ms },
  }
}
