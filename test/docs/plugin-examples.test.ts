import { afterAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, seedServer, tempDir, testApp, testRuntime } from '../helpers.ts'
import { killChildren, runChild, spawnChild } from '../spawn.ts'
import { codeBlocks, repoRoot } from './markdown.ts'

afterAll(() => {
  killChildren()
  cleanupTemp()
})

// The examples of docs/plugin-authors.md, taken from the page itself: each is the one code block
// whose first line names its file.
const guide = readFileSync(join(repoRoot, 'docs/plugin-authors.md'), 'utf8')
function example(file: string): string {
  const found = codeBlocks(guide).filter((b) => b.code.startsWith(`// ${file}:`))
  if (found.length !== 1) throw new Error(`docs/plugin-authors.md shows ${found.length} code blocks starting "// ${file}:", expected one`)
  return found[0].code
}

const INTERVAL = 60_000
// A compiler or a JVM takes seconds to start, many more on a busy machine.
const SLOW = 120_000

// A real site on 127.0.0.1 (the whole app, in this process, on a manual clock), one server with an
// API key, and votes cast through the vote form's JSON answer as a player's browser would.
async function site() {
  const rt = testRuntime({ votes: { interval_minutes: 1 } })
  const { server, key } = await seedServer(rt)
  const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port: 0 })
  const url = `http://127.0.0.1:${app.server!.port}`
  const vote = async (pseudo: string) => {
    const r = await fetch(`${url}/serveur/${server.slug}/voter`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ pseudo }),
    })
    const body = await r.json() as { vote: { id: string; createdAt: string } }
    expect(r.status).toBe(201)
    rt.clock.advance(INTERVAL) // every vote here comes from 127.0.0.1: the next one is allowed a minute later
    return body.vote
  }
  const api = async (method: string, path: string) => (await fetch(`${url}${path}`, { method, headers: { 'X-Api-Key': key } })).json()
  return { url, key, vote, api, stop: () => app.stop() }
}

describe('the Java example (VotelistClient.java)', () => {
  test.skipIf(!Bun.which('javac'))('compiles for Java 11 with javac and checks, then claims each vote once against a real site', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'VotelistClient.java'), example('VotelistClient.java'))
    const javac = await runChild(['javac', '--release', '11', '-d', join(dir, 'classes'), join(dir, 'VotelistClient.java')])
    expect({ code: javac.code, stderr: javac.stderr }).toEqual({ code: 0, stderr: '' })

    const s = await site()
    try {
      const java = (...args: string[]) => runChild(['java', '-cp', join(dir, 'classes'), 'com.example.votes.VotelistClient', ...args])
      const first = await s.vote('Steve')
      const second = await s.vote('steve') // the same player (names match in any case), a minute later

      expect(await java(s.url, s.key, 'Steve')).toEqual({ code: 0, stdout: 'Steve has voted\nclaimed 2 vote(s)', stderr: '' })
      expect(await java(`${s.url}/`, s.key, 'STEVE')).toEqual({ code: 0, stdout: 'STEVE has voted\nclaimed 0 vote(s)', stderr: '' })
      const list = await s.api('GET', '/api/v1/votes') as { votes: { id: string; claimed: boolean }[] }
      expect(list.votes).toEqual([expect.objectContaining({ id: first.id, claimed: true }), expect.objectContaining({ id: second.id, claimed: true })])

      const wrongKey = await java(s.url, 'vlk_' + 'x'.repeat(32), 'Steve')
      expect(wrongKey.code).not.toBe(0)
      expect(wrongKey.stderr).toContain('java.io.IOException: votelist answered 401: INVALID_KEY: the API key is unknown or revoked')
    } finally {
      await s.stop()
    }
  }, SLOW)

  // The plugin needs the Bukkit API, which is not here to compile it against: at least every call
  // it makes on the client must be a public method of the client above.
  test('the plugin around it calls only methods the client has', () => {
    const client = example('VotelistClient.java')
    const plugin = example('VoteRewardPlugin.java')
    const methods = new Set([...client.matchAll(/^ {4}public \w+ (\w+)\(String /gm)].map((m) => m[1]))
    expect([...methods].sort()).toEqual(['claim', 'hasVoted'])
    const calls = [...plugin.matchAll(/\bvotes\.(\w+)\(/g)].map((m) => m[1])
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter((c) => !methods.has(c))).toEqual([])
    expect(plugin).toContain('new VotelistClient(getConfig().getString("votelist-url"), getConfig().getString("votelist-key"))')
  })
})

describe('the TypeScript example (vote-feed.ts)', () => {
  test('type-checks with strict settings', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'vote-feed.ts'), example('vote-feed.ts'))
    const tsc = await runChild([join(repoRoot, 'node_modules/.bin/tsc'), '--noEmit', '--strict', '--target', 'ES2022', '--module', 'preserve',
      '--moduleResolution', 'bundler', '--lib', 'ES2023,DOM', '--types', 'bun', '--typeRoots', join(repoRoot, 'node_modules/@types'), '--skipLibCheck',
      join(dir, 'vote-feed.ts')])
    expect({ code: tsc.code, stdout: tsc.stdout }).toEqual({ code: 0, stdout: '' })
  }, SLOW)

  test('rewards each unclaimed vote once, skips what a plugin claimed, and goes on after a restart from where it stopped', async () => {
    const dir = tempDir()
    const file = join(dir, 'vote-feed.ts')
    writeFileSync(file, example('vote-feed.ts'))
    const s = await site()
    try {
      const steve = await s.vote('Steve')
      const alex = await s.vote('Alex')
      const steveAgain = await s.vote('Steve')
      expect(await s.api('POST', '/api/v1/votes/claim?pseudo=Alex')).toMatchObject({ claimed: true, vote: { id: alex.id } }) // a plugin was first

      const env = { VOTELIST_URL: s.url, VOTELIST_KEY: s.key, SINCE_FILE: join(dir, 'since.txt') }
      const feed = spawnChild([process.execPath, file], { env })
      await feed.waitFor('out', /^up to date at /)
      feed.proc.kill()
      await feed.exited
      expect(feed.out.slice(0, 3)).toEqual([`reward Steve for vote ${steve.id}`, `reward Steve for vote ${steveAgain.id}`, `up to date at ${steveAgain.createdAt}`])
      expect(readFileSync(env.SINCE_FILE, 'utf8')).toBe(steveAgain.createdAt)

      const bob = await s.vote('Bob')
      const again = spawnChild([process.execPath, file], { env })
      await again.waitFor('out', /^up to date at /)
      again.proc.kill()
      await again.exited
      expect(again.out.slice(0, 2)).toEqual([`reward Bob for vote ${bob.id}`, `up to date at ${bob.createdAt}`])
      expect(await s.api('GET', '/api/v1/votes')).toMatchObject({ votes: [{ claimed: true }, { claimed: true }, { claimed: true }, { claimed: true }] })
    } finally {
      await s.stop()
    }
  })
})

// The shape of a JSON value: its keys, nested, and the type of each leaf.
const shapeOf = (v: unknown): unknown =>
  Array.isArray(v) ? v.slice(0, 1).map(shapeOf)
    : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shapeOf(x)]))
      : v === null ? 'null' : typeof v

describe('the curl lines of the guide', () => {
  test.skipIf(!Bun.which('curl'))('each runs as printed against a real site (its address and a key put in) and answers as the sample below it shows', async () => {
    const lines = codeBlocks(guide).filter((b) => b.info === 'sh').flatMap((b) => b.code.split('\n'))
    const commands: { curl: string; samples: unknown[] }[] = []
    for (const line of lines) {
      if (line.startsWith('curl ')) commands.push({ curl: line, samples: [] })
      else if (line.startsWith('# {')) commands.at(-1)!.samples.push(JSON.parse(line.slice(2, line.lastIndexOf('}') + 1)))
    }
    expect(commands.length).toBeGreaterThanOrEqual(6)
    const s = await site()
    try {
      await s.vote('Steve')
      for (const { curl, samples } of commands) {
        const command = curl.replaceAll('https://vote.example.org', s.url).replaceAll('vlk_…', s.key).replace(/^curl /, 'curl -sS -w "\\n%{http_code}" ')
        const run = await runChild(['sh', '-c', command])
        const [body, status] = [run.stdout.slice(0, run.stdout.lastIndexOf('\n')), run.stdout.slice(run.stdout.lastIndexOf('\n') + 1)]
        expect({ curl, status, stderr: run.stderr }).toEqual({ curl, status: '200', stderr: '' })
        const answer = JSON.parse(body)
        // Where the guide shows answers, this one has the shape of one of them.
        const shape = JSON.stringify(shapeOf(answer))
        if (samples.length > 0) expect({ curl, shape, shown: samples.map((x) => JSON.stringify(shapeOf(x))).includes(shape) }).toEqual({ curl, shape, shown: true })
      }
    } finally {
      await s.stop()
    }
  })
})
