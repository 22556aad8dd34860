import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { createUser } from '../../src/accounts/service.ts'
import { ApiError } from '../../src/http/errors.ts'
import { backends, closeTestSites } from '../backends.ts'
import { holdNextWrite, lockWaits } from '../held-write.ts'
import { cleanupTemp, siteOn } from '../helpers.ts'
import { until } from '../until.ts'

afterAll(cleanupTemp)

const password = 'correct horse battery'

// On SQLite every write transaction runs alone, so a creation's checks (the address is free, the
// first account is the administrator, sign-up closed after the first) always see the accounts
// made before it. On PostgreSQL two creations at once must not each miss the other's account.
describe.if(backends.includes('postgres'))('account creations at once on PostgreSQL', () => {
  afterEach(closeTestSites)

  test('a sign-up meeting another of the same address, not yet committed, waits for it and is refused with 409', async () => {
    const rt = await siteOn('postgres')
    const held = holdNextWrite(rt)
    const first = createUser({ ...rt, store: held.store }, { email: 'same@example.com', password })
    await until(held.written, 'the first sign-up to be written')
    const second = createUser(rt, { email: 'SAME@example.com', password }).catch((e: unknown) => e)
    try {
      await until(async () => (await lockWaits(rt)) === 1, 'the second sign-up to wait for the first')
    } finally {
      held.release()
    }
    expect((await first).email).toBe('same@example.com')
    const refused = await second
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 409, errorCode: 'CONFLICT', field: 'email' })
    expect(await rt.store.users.count()).toBe(1)
  })

  test('of the first two accounts made at once, only the first is the administrator', async () => {
    const rt = await siteOn('postgres')
    const held = holdNextWrite(rt)
    const first = createUser({ ...rt, store: held.store }, { email: 'first@example.com', password })
    await until(held.written, 'the first sign-up to be written')
    let settled = false
    const second = createUser(rt, { email: 'second@example.com', password }).finally(() => { settled = true })
    try {
      await until(async () => settled || (await lockWaits(rt)) === 1, 'the second sign-up to wait for the first, or to end')
    } finally {
      held.release()
    }
    expect((await first).isAdmin).toBe(true)
    expect((await second).isAdmin).toBe(false)
    expect(await rt.store.users.countEnabledAdmins()).toBe(1)
  })

  test('with sign-up closed, of the first two accounts made at once the second is refused', async () => {
    const rt = await siteOn('postgres')
    const held = holdNextWrite(rt)
    const first = createUser({ ...rt, store: held.store }, { email: 'first@example.com', password }, { firstOnly: true })
    await until(held.written, 'the first sign-up to be written')
    let settled = false
    const second = createUser(rt, { email: 'second@example.com', password }, { firstOnly: true }).catch((e: unknown) => e).finally(() => { settled = true })
    try {
      await until(async () => settled || (await lockWaits(rt)) === 1, 'the second sign-up to wait for the first, or to end')
    } finally {
      held.release()
    }
    expect((await first).isAdmin).toBe(true)
    expect(await second).toMatchObject({ status: 403, errorCode: 'FORBIDDEN' })
    expect(await rt.store.users.count()).toBe(1)
  })
})
