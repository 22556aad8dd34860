import { afterEach, describe, expect, spyOn, test } from 'bun:test'
import { discordMessage, escapeMarkdown } from '../../src/discord/message.ts'
import { MAX_WAIT_MS, sendDiscord } from '../../src/discord/send-discord.ts'
import { DeliveryFailure } from '../../src/net/guard.ts'
import { VERSION } from '../../src/version.ts'
import { freePort } from '../deliveries/setup.ts'
import { until } from '../until.ts'
import { startDiscordReceiver, WEBHOOK_ID, WEBHOOK_TOKEN, type DiscordReceiver } from './discord-receiver.ts'

const receivers: DiscordReceiver[] = []
afterEach(() => { for (const r of receivers.splice(0)) r.stop() })
function receiver() {
  const r = startDiscordReceiver()
  receivers.push(r)
  return r
}

const loopback = { allowPrivate: true, timeoutMs: 10_000 }
const vote = { pseudo: 'Steve', server: { name: 'Emerald Valley', url: 'https://list.example.org/serveur/emerald-valley' }, monthlyVotes: 1234, votedAt: Date.UTC(2026, 10, 22, 10, 15, 30, 123), test: false, siteName: 'My Server List', language: 'en' }
const message = discordMessage(vote)

async function failure(p: Promise<unknown>): Promise<DeliveryFailure> {
  try {
    await p
  } catch (e) {
    if (e instanceof DeliveryFailure) return e
    throw e
  }
  throw new Error('the send succeeded')
}

describe('the Discord message', () => {
  test('one embed with the player, the server and the month\'s votes; no mention can ping', () => {
    expect(JSON.parse(message)).toEqual({
      allowed_mentions: { parse: [] },
      embeds: [{
        title: 'New vote for Emerald Valley',
        url: 'https://list.example.org/serveur/emerald-valley',
        description: '**Steve** voted for **Emerald Valley**.',
        color: 0x1f6f43,
        fields: [{ name: 'Player', value: 'Steve', inline: true }, { name: 'Votes this month', value: '1,234', inline: true }],
        footer: { text: 'My Server List' },
        timestamp: '2026-11-22T10:15:30.123Z',
      }],
    })
    const test = JSON.parse(discordMessage({ ...vote, test: true })).embeds[0]
    expect(test.title).toBe('Test vote for Emerald Valley')
    expect(test.description).toBe('A test from the My Server List dashboard for **Steve**: not a vote, nobody is rewarded.')
  })

  test('in the site\'s language: French words, the count written the French way (1 234)', () => {
    const fr = JSON.parse(discordMessage({ ...vote, language: 'fr' })).embeds[0]
    expect([fr.title, fr.description, fr.fields]).toEqual(['Nouveau vote pour Emerald Valley', '**Steve** a voté pour **Emerald Valley**.',
      [{ name: 'Joueur', value: 'Steve', inline: true }, { name: 'Votes ce mois-ci', value: '1\u202f234', inline: true }]])
    const test = JSON.parse(discordMessage({ ...vote, language: 'fr', test: true })).embeds[0]
    expect([test.title, test.description]).toEqual(['Vote de test pour Emerald Valley',
      'Un test depuis le tableau de bord de My Server List pour **Steve**\u00a0: ce n’est pas un vote, personne n’est récompensé.'])
  })

  test('names cannot format the message or mention anyone: Discord\'s markdown is escaped', () => {
    expect(escapeMarkdown('*Cool_Guy')).toBe('\\*Cool\\_Guy')
    expect(escapeMarkdown('@everyone <@123> [x](https://e.vil) `c` ~~s~~ ||p|| # h -x > q \\')).toBe(
      '\\@everyone \\<\\@123\\> \\[x\\]\\(https://e.vil\\) \\`c\\` \\~\\~s\\~\\~ \\|\\|p\\|\\| \\# h \\-x \\> q \\\\')
    const body = JSON.parse(discordMessage({ ...vote, pseudo: '*Cool_Guy', server: { ...vote.server, name: '@everyone **Free** [loot](https://e.vil)' } }))
    expect(body.allowed_mentions).toEqual({ parse: [] })
    expect(body.embeds[0].description).toBe('**\\*Cool\\_Guy** voted for **\\@everyone \\*\\*Free\\*\\* \\[loot\\]\\(https://e.vil\\)**.')
    expect(body.embeds[0].fields[0].value).toBe('\\*Cool\\_Guy')
  })
})

describe('posting to a Discord webhook (a local stand-in answering as Discord documents)', () => {
  test('204 is posted; with ?wait=true, 200 with the message; the body is what Discord accepts', async () => {
    const r = receiver()
    expect(await sendDiscord(r.url(), message, loopback)).toEqual({ httpStatus: 204 })
    expect(await sendDiscord(r.url({ query: '?wait=true' }), message, loopback)).toEqual({ httpStatus: 200 })
    expect(r.received.map((m) => m.json)).toEqual([JSON.parse(message), JSON.parse(message)])
    expect(r.received[0].headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': `votelist/${VERSION}`, host: `127.0.0.1:${r.port}` })
  })

  test('a spent bucket (X-RateLimit-Remaining: 0) asks for a pause of X-RateLimit-Reset-After', async () => {
    const r = receiver()
    r.setRemaining(0)
    expect(await sendDiscord(r.url(), message, loopback)).toEqual({ httpStatus: 204, pauseMs: 2500 })
  })

  test('a pause longer than an hour, asked by a success or a 429, is cut to an hour (MAX_WAIT_MS)', async () => {
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req) => new URL(req.url).searchParams.has('wait')
        ? new Response(null, { status: 204, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1e30' } })
        : Response.json({ message: 'You are being rate limited.', retry_after: 1e300 }, { status: 429, headers: { 'retry-after': '1e20' } }),
    })
    try {
      const url = `http://127.0.0.1:${server.port}/api/webhooks/1/t`
      expect(MAX_WAIT_MS).toBe(3_600_000)
      expect(await sendDiscord(`${url}?wait=true`, message, loopback)).toEqual({ httpStatus: 204, pauseMs: MAX_WAIT_MS })
      const limited = await failure(sendDiscord(url, message, loopback))
      expect(limited.detail).toEqual({ httpStatus: 429, retryAfterMs: MAX_WAIT_MS })
      expect(limited.message).toBe('Discord answered 429: "You are being rate limited.": rate limited, so the next attempt waits 3600 s, as Discord asked (it asked for more than the longest wait votelist allows)')
    } finally {
      server.stop(true)
    }
  })

  test('429: the wait is the later of retry_after (seconds, a float) and Retry-After', async () => {
    const r = receiver()
    r.reply({ status: 429, retryAfter: 1.5, header: '2' }, { status: 429, retryAfter: 3.25, header: null }, { status: 429, retryAfter: 0.4, global: true, header: '1' })
    const first = await failure(sendDiscord(r.url(), message, loopback))
    expect(first.detail).toEqual({ httpStatus: 429, retryAfterMs: 2000 })
    expect(first.message).toBe('Discord answered 429: "You are being rate limited.": rate limited, so the next attempt waits 2 s, as Discord asked')
    expect((await failure(sendDiscord(r.url(), message, loopback))).detail).toEqual({ httpStatus: 429, retryAfterMs: 3250 })
    const global = await failure(sendDiscord(r.url(), message, loopback))
    expect(global.detail).toEqual({ httpStatus: 429, retryAfterMs: 1000 })
    expect(global.message).toContain('rate limited (across all of this site\'s webhooks)')
  })

  test('429 with Retry-After as an HTTP date (a proxy in front of Discord): the wait runs to that date, counted from the answer\'s Date, else from our clock', async () => {
    // RFC 9110 allows either form of Retry-After; a proxy's 429 may carry no retry_after body.
    const date = Date.UTC(2026, 10, 22, 10, 15, 30)
    const httpDate = (ms: number) => new Date(ms).toUTCString()
    const asked = [date + 30_000, date + 5 * 3_600_000, date - 10_000]
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response('<html>Too Many Requests</html>', {
        status: 429,
        headers: { date: httpDate(date), 'retry-after': httpDate(asked.shift()!) },
      }),
    })
    try {
      const url = `http://127.0.0.1:${server.port}/api/webhooks/1/t`
      const later = await failure(sendDiscord(url, message, loopback))
      expect(later.detail).toEqual({ httpStatus: 429, retryAfterMs: 30_000 })
      expect(later.message).toBe('Discord answered 429: "<html>Too Many Requests</html>": rate limited, so the next attempt waits 30 s, as Discord asked')
      // Bounded as a number of seconds is: at most an hour, and a date already past is no wait.
      expect((await failure(sendDiscord(url, message, loopback))).detail).toEqual({ httpStatus: 429, retryAfterMs: MAX_WAIT_MS })
      expect((await failure(sendDiscord(url, message, loopback))).detail).toEqual({ httpStatus: 429, retryAfterMs: 0 })
    } finally {
      server.stop(true)
    }
    // An answer without Date (Bun.serve always adds one, hence a raw socket): counted from our clock.
    const until = new Date(Date.now() + 120_000).toUTCString()
    const listener = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: { data(socket) { socket.end(`HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${until}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`) } },
    })
    try {
      const wait = (await failure(sendDiscord(`http://127.0.0.1:${listener.port}/api/webhooks/1/t`, message, loopback))).detail.retryAfterMs!
      expect(wait).toBeGreaterThan(100_000)
      expect(wait).toBeLessThanOrEqual(120_000)
    } finally {
      listener.stop(true)
    }
  })

  test('a deleted webhook (404), a wrong token (401) and a refused message (400) stop the retries; a 5xx does not', async () => {
    const r = receiver()
    const gone = await failure(sendDiscord(r.url({ id: '1111111111111111111' }), message, loopback))
    expect(gone.message).toBe('Discord answered 404: "Unknown Webhook (code 10015)" — the webhook no longer exists in Discord: set a new webhook URL, then Redeliver')
    expect(gone.detail).toEqual({ httpStatus: 404, final: true })
    const token = await failure(sendDiscord(r.url({ token: 'wrong-token-wrong-token-wrong' }), message, loopback))
    expect(token.detail).toEqual({ httpStatus: 401, final: true })
    expect(token.message).toStartWith('Discord answered 401: "Invalid Webhook Token (code 50027)" — the URL\'s token is wrong')
    const refused = await failure(sendDiscord(r.url(), '{}', loopback))
    expect(refused.detail).toEqual({ httpStatus: 400, final: true })
    expect(refused.message).toStartWith('Discord answered 400: "Cannot send an empty message (code 50006)"')
    r.reply(502)
    const down = await failure(sendDiscord(r.url(), message, loopback))
    expect(down.detail).toEqual({ httpStatus: 502 })
    expect(r.received.length).toBe(1) // only the 502's message passed Discord's checks
  })

  test('a redirect is a failure naming its Location, and its body is let go: the connection closes at once, not at the time limit', async () => {
    // A receiver that answers 302 and keeps the body open, as a slow or endless body would.
    let closed = false
    const listener = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        data(socket) { socket.write('HTTP/1.1 302 Found\r\nLocation: https://discord.com/api/webhooks/1/t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nmoved\r\n') },
        close() { closed = true },
      },
    })
    // Every answer fetch gives is kept, so that no garbage collection can close the connection in
    // the sender's place: only the sender letting go of the body does.
    const kept = spyOn(globalThis, 'fetch')
    try {
      const moved = await failure(sendDiscord(`http://127.0.0.1:${listener.port}/api/webhooks/1/t`, message, { allowPrivate: true, timeoutMs: 60_000 }))
      expect(moved.message).toBe('Discord answered 302, a redirect to https://discord.com/api/webhooks/1/t; redirects are not followed: set the URL to the final address')
      expect(moved.detail).toEqual({ httpStatus: 302 })
      expect(kept).toHaveBeenCalledTimes(1)
      await until(() => closed, 'the receiver to see the connection closed', 5_000)
    } finally {
      kept.mockRestore()
      listener.stop(true)
    }
  }, 30_000)

  test('the same outbound rule as every channel: a private address is refused without private targets; a dead port is a failure', async () => {
    const r = receiver()
    // Discord's own URL, its name resolving to the loopback address: only the address is refused.
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }]
    const refused = await failure(sendDiscord(`https://discord.com/api/webhooks/${WEBHOOK_ID}/${WEBHOOK_TOKEN}`, message, { ...loopback, allowPrivate: false, lookup: toLoopback }))
    expect(refused.message).toBe('private target refused: discord.com resolves to 127.0.0.1, a private or reserved address; votelist only connects to public addresses')
    expect(r.received.length).toBe(0)
    const port = freePort()
    expect((await failure(sendDiscord(`http://127.0.0.1:${port}/api/webhooks/1/x`, message, loopback))).message).toBe(`connection refused by 127.0.0.1:${port}: nothing listens on that port`)
  })
})
