import type { Awaitable } from '../db/store.ts'

// Bounds delivery attempts in flight: at most `total` at once and `perTarget` to one target
// (Votifier host:port, webhook origin), so a slow or dead server never holds every slot. A job
// that finds no room is parked: its job row waits (durably) and is woken as soon as a slot to its
// target frees, instead of holding a job-queue slot while it waits.
// A target may also be held: its receiver asked for a pause (Discord's rate limits), and no
// queued attempt goes to it before the time it gave. Holds live in memory: after a restart the
// receiver says it again if it must. A hold that ended is dropped when its target is asked about
// or when any hold is added, so the map keeps the targets held now, not every target ever held.

export interface DeliveryGate {
  enter(target: string): boolean
  leave(target: string): void
  park(jobId: number, target: string): void
  inFlight(): number
  hold(target: string, until: number, now: number): void
  // How many holds are kept (those that ended and were not swept yet included).
  holds(): number
  // The time the target is held until, or null when it is not held at `now`.
  heldUntil(target: string, now: number): number | null
}

export function createDeliveryGate(limits: { total: number; perTarget: number }, wake: (jobId: number) => Awaitable<boolean>): DeliveryGate {
  const busy = new Map<string, number>()
  let total = 0
  // Insertion-ordered: the longest-parked job wakes first.
  const parked = new Map<number, string>()
  const held = new Map<string, number>()

  const hasRoom = (target: string) => total < limits.total && (busy.get(target) ?? 0) < limits.perTarget

  // A wake that fails (the database unreachable for a moment) leaves that job to run at the time
  // its row holds, PARK_MS at most, and goes on with the next: it must not end in a rejection
  // nobody handles, which ends a Bun process.
  async function wakeOne() {
    for (const [jobId, target] of parked) {
      if (!hasRoom(target)) continue
      parked.delete(jobId)
      try {
        if (await wake(jobId)) return
      } catch {
        continue
      }
    }
  }

  return {
    enter(target) {
      if (!hasRoom(target)) return false
      busy.set(target, (busy.get(target) ?? 0) + 1)
      total++
      return true
    },
    leave(target) {
      const n = (busy.get(target) ?? 1) - 1
      if (n > 0) busy.set(target, n)
      else busy.delete(target)
      total--
      // After the current microtasks, so that an attempt leaving and another entering in one
      // turn do not wake a job for a slot already taken.
      setImmediate(wakeOne)
    },
    // `jobId`'s row must be stored with its new run time and no lease: only then can it be woken.
    // A slot that freed while it was being stored found nothing to wake: it wakes the job now.
    park(jobId, target) {
      parked.delete(jobId)
      parked.set(jobId, target)
      if (hasRoom(target)) void wakeOne()
    },
    inFlight: () => total,
    hold(target, until, now) {
      for (const [t, end] of held) if (end <= now) held.delete(t)
      held.set(target, Math.max(until, held.get(target) ?? 0))
    },
    holds: () => held.size,
    heldUntil(target, now) {
      const until = held.get(target)
      if (until === undefined) return null
      if (until > now) return until
      held.delete(target)
      return null
    },
  }
}
