// The write lock two threads' connections share (src/db/write-gate.ts): one holder at a time, the
// site's side first while it waits, and a writer that waited its patience out goes on without it
// (SQLite's own locks still order the writes).
import { expect, test } from 'bun:test'
import { writeGate } from '../../src/db/write-gate.ts'

const AT = { lock: 0, wanted: 1 }

test('one holder at a time; the lock is free again once left', () => {
  const slots = new Int32Array(new SharedArrayBuffer(8))
  const site = writeGate(slots, AT, 'site', 20)
  const other = writeGate(slots, AT, 'other', 20)
  const held = other.enter()
  expect(held).toBe(true)
  // Held by the other side: the site waits its patience, then goes on without the lock.
  expect(site.enter()).toBe(false)
  expect(Atomics.load(slots, AT.wanted)).toBe(0)
  other.leave(held)
  const mine = site.enter()
  expect(mine).toBe(true)
  expect(other.enter()).toBe(false)
  site.leave(mine)
  expect(Atomics.load(slots, AT.lock)).toBe(0)
  site.leave(false)
  expect(Atomics.load(slots, AT.lock)).toBe(0)
})

test('while the site waits for the lock, the other side does not take it: it waits its patience out first', () => {
  const slots = new Int32Array(new SharedArrayBuffer(8))
  const other = writeGate(slots, AT, 'other', 30)
  // The site's side waiting (as its enter() marks it while it waits), and never taking it here.
  Atomics.store(slots, AT.wanted, 1)
  const start = performance.now()
  const taken = other.enter()
  // A lower bound only: a slow machine can only make it longer.
  expect(performance.now() - start).toBeGreaterThanOrEqual(29)
  expect(taken).toBe(true)
  other.leave(taken)
  // Not wanted: taken at once.
  Atomics.store(slots, AT.wanted, 0)
  expect(other.enter()).toBe(true)
})
