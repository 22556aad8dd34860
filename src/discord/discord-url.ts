import { refusal, type UrlRefusal } from '../webhooks/webhook-url.ts'

// Where Discord serves webhooks: the stable, Public Test Build and Canary clients, under the
// current and the former domain.
const DISCORD_HOSTS = new Set(['discord.com', 'ptb.discord.com', 'canary.discord.com', 'discordapp.com', 'ptb.discordapp.com', 'canary.discordapp.com'])
// /api[/v<n>]/webhooks/<webhook id: a snowflake>/<token>, as Discord's "Copy Webhook URL" gives it.
const DISCORD_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/\d{15,21}\/[A-Za-z0-9_-]{20,200}$/
export const DISCORD_SHAPE = 'url must be a Discord webhook URL, https://discord.com/api/webhooks/<id>/<token>, as the channel\'s Integrations → Webhooks → Copy Webhook URL gives it'
const NOT_DISCORD = 'this site only posts to Discord\'s own webhook URLs, https://discord.com/api/webhooks/<id>/<token> (network.allow_private_targets is off): set the URL the channel\'s Integrations → Webhooks → Copy Webhook URL gives'

// The rules a Discord webhook URL (its path without trailing slashes) must pass under the site's
// network policy, when the owner saves it and again before every send (the admin may have turned
// network.allow_private_targets off since): https, one of Discord's hosts without a port, the
// webhook path, and no query but `thread_id` (a thread of a forum or a channel). Where private
// targets are allowed (local and test installs) any http(s) URL is taken, so that a local receiver
// can stand in for Discord.
export function discordUrlRefusal(url: URL, allowPrivate: boolean): UrlRefusal | null {
  if (url.username || url.password) return refusal('url must not contain a user name or password')
  if (url.hash) return refusal('url must not contain a #fragment')
  if (allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:' ? null : refusal(DISCORD_SHAPE)
  if (url.protocol !== 'https:' || !DISCORD_HOSTS.has(url.hostname) || url.port || !DISCORD_PATH.test(url.pathname)) return { save: DISCORD_SHAPE, send: NOT_DISCORD }
  for (const [name, value] of url.searchParams) {
    if (name !== 'thread_id' || !/^\d{15,21}$/.test(value)) {
      return {
        save: `url: the only query Discord webhooks take here is thread_id=<id of a thread> (not "${name}")`,
        send: `the only query a Discord webhook URL may have on this site is thread_id=<id of a thread> (not "${name}"; network.allow_private_targets is off): remove it from the URL`,
      }
    }
  }
  return null
}
