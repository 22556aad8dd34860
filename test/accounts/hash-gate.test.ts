import { describe, expect, test } from 'bun:test'
import { HashGate } from '../../src/accounts/hash-gate.ts'
import { ApiError } from '../../src/http/errors.ts'

describe('hash gate', () => {
  test('runs at most `concurrency` at once, lets `maxWaiting` wait in order, refuses the rest with 429', async () => {
    const gate = new HashGate(2, 2)
    let running = 0
    let peak = 0
    const order: number[] = []
    const releases: (() => void)[] = []
    const job = (n: number) => gate.run(async () => {
      running++
      peak = Math.max(peak, running)
      order.push(n)
      await new Promise<void>((done) => releases.push(done))
      running--
      return n
    })
    const accepted = [1, 2, 3, 4].map(job)
    await Bun.sleep(0)
    expect(gate.load).toEqual({ running: 2, waiting: 2 })
    const refused = await job(5).catch((e) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 429, errorCode: 'RATE_LIMITED', headers: { 'Retry-After': '1' } })
    // Finishing one job lets exactly one waiter in.
    for (let done = 0; done < 4; done++) {
      releases.shift()!()
      await Bun.sleep(0)
      expect(running).toBe(Math.min(2, 3 - done))
    }
    expect(await Promise.all(accepted)).toEqual([1, 2, 3, 4])
    expect(order).toEqual([1, 2, 3, 4])
    expect(peak).toBe(2)
    expect(gate.load).toEqual({ running: 0, waiting: 0 })
  })

  test('a failing job frees its slot', async () => {
    const gate = new HashGate(1, 0)
    await expect(gate.run(async () => { throw new Error('boom') })).rejects.toThrow('boom')
    expect(await gate.run(async () => 'next')).toBe('next')
  })
})
