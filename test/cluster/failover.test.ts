import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { INTERRUPTED } from '../../src/deliveries/repo.ts'
import { backends, closeTestSites } from '../backends.ts'
import { cleanupTemp } from '../helpers.ts'
import { stopServer, type RunningServer } from '../real-server.ts'
import { until } from '../until.ts'
import { addressOf, clusterSite, vote, type ClusterSite } from './instances.ts'

let site: ClusterSite | null = null
afterEach(async () => {
  site?.stop()
  site = null
  await closeTestSites()
})
afterAll(cleanupTemp)

interface Delivery {
  id: string
  channel: 'votifier' | 'webhook'
  pseudo: string
  status: string
  interrupted: number
}

// Every delivery of the site with its attempts cut short by a dying instance.
const deliveries = (s: ClusterSite) => s.rt.rows<Delivery>(`SELECT d.id, d.channel, d.pseudo, d.status,
    (SELECT count(*) FROM delivery_attempt a WHERE a.delivery_id = d.id AND a.error = ?) AS interrupted
  FROM delivery d WHERE d.test = 0`, INTERRUPTED)

// How many times each delivery reached its receiver: a webhook by its X-TSM-Delivery header, a
// Votifier vote by its player (each vote of these tests has a player of its own).
function arrivals(s: ClusterSite, all: Delivery[]): Map<string, number> {
  const byPseudo = new Map(all.filter((d) => d.channel === 'votifier').map((d) => [d.pseudo, d.id]))
  const count = new Map<string, number>()
  const add = (id: string | undefined) => { if (id) count.set(id, (count.get(id) ?? 0) + 1) }
  for (const v of s.votifier.votes) add(byPseudo.get(v.username))
  for (const h of s.webhook.received) add(h.headers['x-tsm-delivery'])
  return count
}

// Votes from `workers` loops, each to the next instance of `targets()` (the rotation a load
// balancer would use), until `done()`. A vote answered 201 is acknowledged; a request that got no
// answer is counted as unanswered (its vote may or may not be recorded). `drained(instance)` waits
// until no request already sent to that instance is still waiting for its answer, as a load
// balancer's connection draining does before the instance is stopped.
function voteLoad(s: ClusterSite, targets: () => RunningServer[], workers: number, prefix: string) {
  const acked = new Map<string, string>() // vote id → pseudo
  const other: number[] = []
  let unanswered = 0
  let next = 0
  let stopped = false
  const inFlight = new Map<RunningServer, number>()
  const worker = async () => {
    while (!stopped) {
      const i = next++
      const list = targets()
      const target = list[i % list.length]
      inFlight.set(target, (inFlight.get(target) ?? 0) + 1)
      try {
        const r = await vote(target, s.server.slug, `${prefix}${i}`, addressOf(i))
        if (r.status === 201) acked.set(r.body.vote.id, r.body.vote.pseudo)
        else other.push(r.status)
      } catch {
        unanswered++
      } finally {
        inFlight.set(target, inFlight.get(target)! - 1)
      }
    }
  }
  const running = Promise.all(Array.from({ length: workers }, worker))
  return {
    acked, other,
    unanswered: () => unanswered,
    drained: (target: RunningServer) => until(() => (inFlight.get(target) ?? 0) === 0, 'the requests already sent to the instance to be answered'),
    async stop() {
      stopped = true
      await running
    },
  }
}

// Waits for every delivery of the site to succeed, then checks that every acknowledged vote is
// recorded with both deliveries, and how often each delivery arrived: once, or (at least once) up
// to once more per attempt a dying instance cut short. Returns the number of repeats.
async function expectDelivered(s: ClusterSite, acked: Map<string, string>): Promise<number> {
  const ids = [...acked.keys()]
  expect((await s.rt.rows<{ id: string }>('SELECT id FROM vote WHERE id = ANY(?::text[])', ids)).length).toBe(ids.length)
  await until(async () => (await s.rt.row<{ n: number }>("SELECT count(*) AS n FROM delivery WHERE status <> 'succeeded'"))!.n === 0,
    'every delivery to succeed (the jobs of a dead instance run once their lease has ended)', 150_000)
  const all = await deliveries(s)
  const count = arrivals(s, all)
  const pseudos = new Set(acked.values())
  expect(all.filter((d) => pseudos.has(d.pseudo)).length).toBe(2 * acked.size)
  let repeats = 0
  for (const d of all) {
    const n = count.get(d.id) ?? 0
    expect({ id: d.id, arrived: n >= 1 && n <= 1 + d.interrupted }).toEqual({ id: d.id, arrived: true })
    repeats += n - 1
  }
  return repeats
}

describe.if(backends.includes('postgres'))('instances dying and being replaced on PostgreSQL', () => {
  test('kill -9 of one instance during a vote burst: every acknowledged vote kept, every delivery made by the survivor', async () => {
    site = await clusterSite()
    const [a, b] = await Promise.all([site.start(), site.start()])
    let killed = false
    const load = voteLoad(site, () => (killed ? [b] : [a, b]), 16, 'burst')
    await until(() => load.acked.size >= 150, '150 acknowledged votes')
    // From now on the webhook receiver holds its answers, until A is dead: each instance keeps up
    // to 4 attempts in flight to it, so once 5 more have arrived, A surely has some in flight.
    let release!: () => void
    const held = new Promise<void>((r) => { release = r })
    site.webhook.reply(...Array.from({ length: 5000 }, () => ({ status: 204, hold: held })))
    const before = site.webhook.received.length
    await until(() => site!.webhook.received.length >= before + 5, 'attempts of both instances in flight')
    a.proc.kill('SIGKILL')
    killed = true
    await a.proc.exited
    release()
    const ackedAtKill = load.acked.size
    await until(() => load.acked.size >= ackedAtKill + 100, '100 more votes through the survivor')
    await load.stop()
    expect(load.other).toEqual([])
    const repeats = await expectDelivered(site, load.acked)
    const interrupted = (await deliveries(site)).reduce((n, d) => n + Number(d.interrupted), 0)
    expect(interrupted).toBeGreaterThan(0)
    console.info(`kill -9: ${load.acked.size} votes acknowledged, ${load.unanswered()} unanswered at the kill, ${interrupted} attempts cut short, ${repeats} deliveries received twice`)
  }, 240_000)

  test('a rolling upgrade (stop one, start it again, then the other) loses no vote and no delivery, and repeats none', async () => {
    site = await clusterSite()
    const started = await Promise.all([site.start(), site.start()])
    let rotation = [...started]
    const load = voteLoad(site, () => rotation, 8, 'rolling')
    for (const i of [0, 1]) {
      await until(() => load.acked.size >= 100 * (i + 1), 'votes through both')
      // The load balancer stops sending to the instance, lets the requests it already sent there
      // be answered, and the instance is then stopped gracefully.
      const old = rotation[i]
      rotation = rotation.filter((s) => s !== old)
      await load.drained(old)
      expect(await stopServer(old)).toBe(0)
      const replacement = await site.start()
      rotation = [...rotation, replacement].sort((x, y) => (x === replacement ? i : 1 - i) - (y === replacement ? i : 1 - i))
    }
    const after = load.acked.size
    await until(() => load.acked.size >= after + 100, 'votes through the upgraded instances')
    await load.stop()
    expect([load.other, load.unanswered()]).toEqual([[], 0])
    expect(await expectDelivered(site, load.acked)).toBe(0)
  }, 240_000)
})
