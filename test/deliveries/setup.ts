// Shared setup of the delivery tests: a runtime that may reach loopback receivers, with the
// delivery handler registered (optionally with a local resolver / CA), and one listed server.
import type { ConfigInput } from '../../src/config/load.ts'
import { registerDeliveryWork } from '../../src/deliveries/attempt.ts'
import type { Lookup } from '../../src/net/guard.ts'
import { seedServer, testRuntime, type TestRuntime } from '../helpers.ts'

export async function deliveryRuntime(input: ConfigInput = {}, net?: { lookup?: Lookup; ca?: string }, start?: number) {
  const rt = testRuntime({ ...input, network: { allow_private_targets: true, ...input.network } }, start)
  useDeliveryHandler(rt, net)
  const seeded = await seedServer(rt)
  return { rt, ...seeded }
}

export function useDeliveryHandler(rt: TestRuntime, net?: { lookup?: Lookup; ca?: string }) {
  registerDeliveryWork(rt.queue, { ...rt, net })
}

export interface AttemptDbRow {
  deliveryId: string
  attempt: number
  status: string
  error: string | null
  httpStatus: number | null
  durationMs: number | null
  startedAt: number
  nextAttemptAt: number | null
}

export const attemptRows = (rt: TestRuntime) => rt.db.query(`SELECT delivery_id AS deliveryId, attempt, status, error, http_status AS httpStatus,
  duration_ms AS durationMs, started_at AS startedAt, next_attempt_at AS nextAttemptAt FROM delivery_attempt ORDER BY id`).all() as AttemptDbRow[]

export const deliveryRows = (rt: TestRuntime) => rt.db.query(`SELECT id, channel, test, status, attempts, next_attempt_at AS nextAttemptAt
  FROM delivery ORDER BY created_at, channel`).all() as { id: string; channel: string; test: number; status: string; attempts: number; nextAttemptAt: number | null }[]

// Moves the clock to the next due delivery job and runs what is due.
export async function runNextDelivery(rt: TestRuntime) {
  const next = rt.db.query(`SELECT min(run_at) AS at FROM job WHERE kind = 'delivery'`).get() as { at: number | null }
  if (next.at === null) throw new Error('no delivery job left')
  rt.clock.set(Math.max(rt.clock.now(), next.at))
  return rt.queue.drain()
}

export const jobCount = (rt: TestRuntime) => (rt.db.query(`SELECT count(*) AS n FROM job WHERE kind = 'delivery'`).get() as { n: number }).n

// A port nothing listens on: bind one, note it, close it.
export function freePort() {
  const l = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = l.port
  l.stop(true)
  return port
}
