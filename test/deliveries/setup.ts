// Shared setup of the delivery tests: a runtime that may reach loopback receivers, with the
// delivery handler registered (optionally with a local resolver / CA), and one listed server.
import type { ConfigInput } from '../../src/config/load.ts'
import { registerDeliveryWork } from '../../src/deliveries/attempt.ts'
import type { Lookup } from '../../src/net/guard.ts'
import type { Backend } from '../backends.ts'
import { seedServer, siteOn, type BackendRuntime } from '../helpers.ts'

export async function deliveryRuntime(backend: Backend, input: ConfigInput = {}, net?: { lookup?: Lookup; ca?: string }, start?: number) {
  const rt = await siteOn(backend, { ...input, network: { allow_private_targets: true, ...input.network } }, start)
  useDeliveryHandler(rt, net)
  const seeded = await seedServer(rt)
  return { rt, ...seeded }
}

export function useDeliveryHandler(rt: BackendRuntime, net?: { lookup?: Lookup; ca?: string }) {
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

export const attemptRows = (rt: BackendRuntime) => rt.rows<AttemptDbRow>(`SELECT delivery_id AS "deliveryId", attempt, status, error,
  http_status AS "httpStatus", duration_ms AS "durationMs", started_at AS "startedAt", next_attempt_at AS "nextAttemptAt" FROM delivery_attempt ORDER BY id`)

export const deliveryRows = (rt: BackendRuntime) => rt.rows<{ id: string; channel: string; test: number; status: string; attempts: number; nextAttemptAt: number | null }>(
  'SELECT id, channel, test, status, attempts, next_attempt_at AS "nextAttemptAt" FROM delivery ORDER BY created_at, channel, id')

// Moves the clock to the next due delivery job and runs what is due.
export async function runNextDelivery(rt: BackendRuntime) {
  const next = (await rt.row<{ at: number | null }>(`SELECT min(run_at) AS at FROM job WHERE kind = 'delivery'`))!
  if (next.at === null) throw new Error('no delivery job left')
  rt.clock.set(Math.max(rt.clock.now(), next.at))
  return rt.queue.drain()
}

export const jobCount = async (rt: BackendRuntime) => (await rt.row<{ n: number }>(`SELECT count(*) AS n FROM job WHERE kind = 'delivery'`))!.n

// A port nothing listens on: bind one, note it, close it.
export function freePort() {
  const l = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = l.port
  l.stop(true)
  return port
}
