import { afterAll, describe, expect, test } from 'bun:test'
import { createDeliveryGate } from '../../src/deliveries/gate.ts'
import { describeBackends, type Backend } from '../backends.ts'
import { cleanupTemp, siteOn } from '../helpers.ts'

afterAll(cleanupTemp)
const nextTurn = () => new Promise((r) => setImmediate(r))

describeBackends('delivery gate', (backend) => {
  test('bounds attempts per target and overall', () => {
    const gate = createDeliveryGate({ total: 3, perTarget: 2 }, () => true)
    expect([gate.enter('a'), gate.enter('a'), gate.enter('a')]).toEqual([true, true, false])
    expect(gate.enter('b')).toBe(true)
    expect(gate.enter('c')).toBe(false) // 3 in flight overall
    gate.leave('a')
    expect(gate.enter('c')).toBe(true)
    expect(gate.inFlight()).toBe(3)
  })

  test('a freed slot wakes the longest-parked job that fits, after the current turn', async () => {
    const woken: number[] = []
    const gate = createDeliveryGate({ total: 10, perTarget: 1 }, (id) => { woken.push(id); return true })
    gate.enter('a')
    gate.enter('b')
    gate.park(1, 'a')
    gate.park(2, 'b')
    gate.park(3, 'a')
    gate.leave('b')
    expect(woken).toEqual([]) // not within the current turn, when another attempt may take the slot
    await nextTurn()
    expect(woken).toEqual([2])
    gate.leave('a')
    await nextTurn()
    expect(woken).toEqual([2, 1])
  })

  test('a job parked after its slot freed (while its run time was being stored) is woken at once', () => {
    const woken: number[] = []
    const gate = createDeliveryGate({ total: 10, perTarget: 1 }, (id) => { woken.push(id); return true })
    gate.enter('a')
    gate.leave('a') // its wake finds nothing parked
    gate.park(1, 'a')
    expect(woken).toEqual([1])
  })

  test('a wake that fails goes on with the next parked job, and rejects nothing', async () => {
    const woken: number[] = []
    const gate = createDeliveryGate({ total: 10, perTarget: 2 }, async (id) => {
      woken.push(id)
      if (id === 1) throw new Error('database unreachable')
      return true
    })
    gate.enter('a')
    gate.enter('a')
    gate.park(1, 'a')
    gate.park(2, 'a')
    gate.leave('a')
    // A rejection nobody handled would end this test's process before the next line's wait.
    await nextTurn()
    await nextTurn()
    expect(woken).toEqual([1, 2])
  })

  test('a parked job that already ran is skipped for the next one', async () => {
    const woken: number[] = []
    const gate = createDeliveryGate({ total: 10, perTarget: 1 }, (id) => { woken.push(id); return id !== 1 })
    gate.enter('a')
    gate.park(1, 'a')
    gate.park(2, 'a')
    gate.leave('a')
    await nextTurn()
    expect(woken).toEqual([1, 2])
  })
})

describe('delivery gate holds', () => {
  test('a target is held until the time its receiver gave, the later of two', () => {
    const gate = createDeliveryGate({ total: 10, perTarget: 1 }, () => true)
    gate.hold('a', 5_000, 0)
    gate.hold('a', 3_000, 0)
    expect([gate.heldUntil('a', 4_999), gate.heldUntil('a', 5_000), gate.heldUntil('b', 0)]).toEqual([5_000, null, null])
  })

  test('holds that ended are dropped when another is added, also those of targets never sent to again', () => {
    const gate = createDeliveryGate({ total: 10, perTarget: 1 }, () => true)
    // A thousand receivers that each asked for a second's pause once, then were never sent to again
    // (a changed webhook URL, a deleted server).
    for (let i = 0; i < 1000; i++) gate.hold(`https://hooks${i}.example`, 1_000 + i, i)
    expect(gate.holds()).toBe(1000)
    gate.hold('https://busy.example', 10_000, 5_000)
    expect(gate.holds()).toBe(1)
    expect(gate.heldUntil('https://busy.example', 5_000)).toBe(10_000)
  })
})

describeBackends('queue.hasten', (backend) => {
  test('makes a waiting job due now; not a running, due or missing one', async () => {
    const rt = await siteOn(backend)
    const ran: number[] = []
    rt.queue.handle('k', (job) => { ran.push(job.id) })
    const later = await rt.store.jobs.enqueue({ kind: 'k', runAt: rt.clock.now() + 3600_000 }, rt.clock.now())
    const due = await rt.store.jobs.enqueue({ kind: 'k', runAt: rt.clock.now() - 1 }, rt.clock.now())
    expect(await rt.queue.hasten(due)).toBe(false)
    expect(await rt.queue.hasten(9999)).toBe(false)
    expect(await rt.queue.hasten(later)).toBe(true)
    await rt.queue.drain()
    expect(ran.sort()).toEqual([later, due].sort())
  })
})
