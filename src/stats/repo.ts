import type { Awaitable } from '../db/store.ts'
import type { Icon } from '../media/icon.ts'
import type { PingStatus } from '../ping/pinger.ts'

// The statistics tables (migrations 0005 and 0050): each server's samples and rollups, the global
// series, and the last status a round writes (which the servers repository reads). Times are
// integer ms; a sample's t is its ping round's start; rollup t is the UTC hour or day start.

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

// One ping of one server in a round; `at` is when the answer (or the failure) came.
export interface Measurement {
  serverNum: number
  // The server measured: its row, found by `serverNum`, must still be this one. SQLite gives the
  // num of a deleted server, when it was the newest, to the next server listed; a round pinging
  // meanwhile must not write the old server's measurement on the new one.
  serverId: string
  status: PingStatus
  at: number
  // The icon its answer carried (null: none, or not a valid one); absent when it did not answer.
  icon?: Icon | null
}

// Rows read for history, as arrays (the fastest form bun:sqlite returns):
// raw: [t, value, measurements, up]; rollup: [t, values, measurements, up, sum, min, max, hist].
// For one server a value is a measurement's players; for the global series a value is a round's sum.
export type RawRow = [number, number, number, number]
export type RollupRow = [number, number, number, number, number, number, number, Uint8Array]

type Read<T> = (from: number, to: number) => Awaitable<T>
export interface Series {
  raw: Read<RawRow[]>
  hourly: Read<RollupRow[]>
  daily: Read<RollupRow[]>
  // Every raw value of the window (for an exact median).
  values: Read<Float64Array>
}

// The last ping round as the administrator sees it.
export interface LastRound {
  t: number // the round's start
  servers: number
  up: number
  durationMs: number // the pings, from the round's start to its last answer
  finishedAt: number
}

export interface StatsRepo {
  // Writes one measurement: latest status, raw sample and both rollups. False when the server was
  // deleted meanwhile (its num may then be another server's) or this round was already recorded
  // for it (the rollups count it once).
  recordMeasurement(t: number, m: Measurement): Awaitable<boolean>
  // Keeps the icon a server answered with (null: it answered without a valid one, and any kept
  // icon goes). Writes only when the icon changed; true when it did.
  recordIcon(serverNum: number, icon: Icon | null, at: number): Awaitable<boolean>
  // One round of one global scope: `players` summed over `servers` measurements, `up` of them up.
  recordGlobal(scope: string, t: number, sum: { players: number; servers: number; up: number }): Awaitable<void>
  serverSeries(serverNum: number): Series
  globalSeries(scope: string): Series
  // Share of measurements after `since` that succeeded; null when there was none.
  uptimeSince(serverNum: number, since: number): Awaitable<number | null>
  // The oldest raw or global sample's time, or null when there is none.
  oldestSample(): Awaitable<number | null>
  // Deletes raw and global samples in [from, to); returns how many.
  purgeSamples(from: number, to: number): Awaitable<number>
  recordLastRound(r: LastRound): Awaitable<void>
  lastRound(): Awaitable<LastRound | null>
}
