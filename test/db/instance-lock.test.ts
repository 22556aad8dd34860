import { afterAll, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { acquireInstanceLock, InstanceLockError } from '../../src/db/instance-lock.ts'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

test('the instance lock: one holder at a time, and nothing but its file in the data folder', () => {
  const dir = tempDir()
  const database = join(dir, 'votelist.db')
  const held = acquireInstanceLock(database)
  expect(() => acquireInstanceLock(database)).toThrow(InstanceLockError)
  // No journal beside it while it is held (the lock file holds no data to journal).
  expect(readdirSync(dir)).toEqual(['votelist.db.lock'])
  held.release()
  const again = acquireInstanceLock(database)
  again.release()
})
