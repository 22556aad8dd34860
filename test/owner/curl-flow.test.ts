import { afterAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'

afterAll(cleanupTemp)

const root = join(import.meta.dir, '..', '..')

// Starts the real site (`votelist serve`) on 127.0.0.1 with a free port and returns its address,
// read from the "listening" log line.
async function startSite(dir: string) {
  const config = join(dir, 'votelist.toml')
  writeFileSync(config, [
    '[site]', 'service_name = "CurlList"',
    '[http]', 'host = "127.0.0.1"', 'port = 0',
    '[database]', 'path = "votelist.db"',
    '[network]', 'allow_private_targets = true',
  ].join('\n'))
  const proc = Bun.spawn(['bun', join(root, 'src/main.ts'), 'serve', '--config', config], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
  const reader = proc.stderr.getReader()
  let log = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`votelist stopped before listening:\n${log}`)
    log += new TextDecoder().decode(value)
    const m = /votelist listening .*"url":"(http:\/\/127\.0\.0\.1:\d+)\/"/.exec(log)
    if (m) {
      // Keep draining the log so a chatty server never blocks on a full pipe.
      void (async () => { while (!(await reader.read()).done); })()
      return { proc, url: m[1] }
    }
  }
}

test('a shell script with only curl registers, logs in, lists a server, creates a key, sets a webhook and a Votifier target, and reads them back', async () => {
  const { proc, url } = await startSite(tempDir())
  try {
    const run = Bun.spawn(['bash', join(import.meta.dir, 'curl-flow.sh'), url], {
      env: {
        PATH: process.env.PATH!, EMAIL: 'shell@example.com', PASSWORD: 'a "quoted" pass\\word', SERVER_NAME: 'Curl "Valley"',
        SERVER_HOST: 'play.example.com', WEBHOOK_URL: 'http://127.0.0.1:9/hook', VOTIFIER_HOST: '127.0.0.1', VOTIFIER_PORT: '8193',
      },
      stdout: 'pipe', stderr: 'pipe',
    })
    const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited])
    expect({ code, err }).toEqual({ code: 0, err: '' })
    const lines = out.trim().split('\n')
    const value = (label: string) => lines.find((l) => l.startsWith(`${label}: `))!.slice(label.length + 2)
    expect(value('registered')).toBe('shell@example.com')
    expect(value('logged in')).toBe('shell@example.com')
    expect(value('server')).toBe('curl-valley')
    expect(value('key')).toMatch(/^vlk_[A-Za-z0-9_-]{32}$/)
    const secret = value('webhook secret')
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    const line = value('votifier line')
    expect(line).toMatch(/^CurlList: [0-9a-v]{32}$/)

    const server = JSON.parse(value('read back server')).server
    expect(server).toMatchObject({
      slug: 'curl-valley', name: 'Curl "Valley"', host: 'play.example.com',
      webhook: { url: 'http://127.0.0.1:9/hook', secret },
      votifier: { host: '127.0.0.1', port: 8193, protocol: 'v2', token: line.slice('CurlList: '.length), configLine: line },
    })
    const keys = JSON.parse(value('read back keys')).keys
    expect(keys).toEqual([{ id: expect.any(String), prefix: value('key').slice(0, 8), name: 'curl', createdAt: expect.any(String), lastUsedAt: null }])
  } finally {
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
  }
})
