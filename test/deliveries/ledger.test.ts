import { afterAll, expect, test } from 'bun:test'
import { createAttemptLedger } from '../../src/deliveries/ledger.ts'
import { describeBackends } from '../backends.ts'
import { cleanupTemp, siteOn, type BackendRuntime, type TestRuntime } from '../helpers.ts'

// The attempt ledger's writes when the database refuses them (src/deliveries/ledger.ts): a group
// that fails is tried again write by write, and a later group failing meanwhile must be answered
// too, in order, without its failure ever being a rejection nobody handles (Bun ends the process
// on one, which here would be the test's process).

afterAll(cleanupTemp)

// Every write of the site's store fails from now until the returned function is called: on
// SQLite its connection is made query-only; on PostgreSQL a trigger refuses any UPDATE of the job
// queue (a claim is one, even when it finds nothing).
async function refuseWrites(rt: BackendRuntime): Promise<() => Promise<void>> {
  if (rt.backend === 'sqlite') {
    const db = (rt as unknown as TestRuntime).db
    db.run('PRAGMA query_only = 1')
    return async () => { db.run('PRAGMA query_only = 0') }
  }
  await rt.rows(`CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'writes refused'; END $$`)
  await rt.rows('CREATE TRIGGER refuse BEFORE UPDATE ON job FOR EACH STATEMENT EXECUTE FUNCTION refuse_writes()')
  return async () => { await rt.rows('DROP TRIGGER refuse ON job') }
}

describeBackends('attempt ledger', (backend) => {
  test('a group failing while an earlier one is retried write by write: every write fails alone, in order, and the ledger goes on', async () => {
    const rt = await siteOn(backend)
    const ledger = createAttemptLedger(rt.store)
    const allow = await refuseWrites(rt)
    const order: number[] = []
    let second: Promise<unknown>[] = []
    const claim = (n: number): Promise<unknown> => ledger.claim({ kinds: ['nothing'], now: rt.clock.now(), leaseUntil: rt.clock.now() + 60_000, limit: 1 })
      .then(() => { throw new Error(`claim ${n} was written`) }, (e: unknown) => {
        order.push(n)
        // As soon as the first claim has failed alone, a second group comes: on PostgreSQL it is
        // written (and fails) while the other 19 of the first are still being tried, one round
        // trip each (on SQLite writes are synchronous and the first group is done by then).
        if (n === 0) second = Array.from({ length: 5 }, (_, i) => claim(20 + i))
        return e
      })

    // One group of 20 claims: it fails whole, then each is tried alone, one after the other.
    const first = Array.from({ length: 20 }, (_, i) => claim(i))
    const errors = [...(await Promise.all(first)), ...(await Promise.all(second))]
    expect(errors).toHaveLength(25)

    for (const e of errors) expect(String((e as Error).message)).toMatch(backend === 'sqlite' ? /readonly/ : /writes refused/)
    expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i))

    await allow()
    expect(await ledger.claim({ kinds: ['nothing'], now: rt.clock.now(), leaseUntil: rt.clock.now() + 60_000, limit: 1 })).toEqual([])
  })
})
