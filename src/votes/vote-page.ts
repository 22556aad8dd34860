import { WIDGET_CSS_PATH, WIDGET_PATH } from '../captcha/routes.ts'
import type { Config } from '../config/load.ts'
import type { ApiError } from '../http/errors.ts'
import type { Server } from '../servers/repo.ts'
import { BEDROCK_PSEUDO, JAVA_PSEUDO } from '../servers/pseudo.ts'
import { formatUtc } from '../pages/format.ts'
import { html } from '../pages/html.ts'
import { renderLayout } from '../pages/layout.ts'
import { editionLabel } from '../pages/ranking-page.ts'
import { renderVerifiedMark } from '../pages/verified-mark.ts'

export interface VotePageState {
  pseudo: string // pre-filled
  error?: ApiError // the refused submission, shown above the form
  voted?: { pseudo: string; createdAt: number } // the vote just recorded
}

// The server's own rules (src/servers/pseudo.ts) as HTML patterns (implicitly anchored; the length
// is minlength/maxlength), so a browser catches a typo before sending.
const unanchored = (r: RegExp) => r.source.replace(/^\^|\$$/g, '')
const PATTERN = { java: unanchored(JAVA_PSEUDO), bedrock: unanchored(BEDROCK_PSEUDO) }
const HINT = {
  java: 'Your Minecraft: Java Edition name: 3 to 16 letters, digits or underscores.',
  bedrock: 'Your Bedrock gamertag as the server sees it: 3 to 16 letters, digits, underscores or spaces, with a leading "." or "*" if the server adds one.',
}

function renderNotice(state: VotePageState, server: Server, intervalMinutes: number) {
  if (state.voted) {
    const next = state.voted.createdAt + intervalMinutes * 60_000
    return html`<div class="notice notice-success" role="status">
  <p><strong>Thank you, ${state.voted.pseudo}!</strong> Your vote for ${server.name} was recorded on ${formatUtc(state.voted.createdAt)}.</p>
  <p>You can vote again from <time datetime="${new Date(next).toISOString()}">${formatUtc(next)}</time>.</p>
</div>`
  }
  const e = state.error
  if (!e) return ''
  const next = typeof e.extra.nextVoteAt === 'string' ? e.extra.nextVoteAt : null
  const message = e.errorCode === 'VOTE_TOO_SOON' && next
    ? html`You already voted for ${server.name} recently (with this name or from this connection). You can vote again from <time datetime="${next}">${formatUtc(Date.parse(next))}</time>.`
    : e.message
  return html`<div class="notice notice-error" role="alert"><p>${message}</p></div>`
}

export function renderVotePage(config: Config, server: Server, state: VotePageState): string {
  const base = `/serveur/${server.slug}`
  const captcha = config.votes.captcha === 'pow'
  const dualStack = Boolean(config.site.ipv4_url || config.site.ipv6_url)
  const hours = config.votes.interval_minutes / 60
  const interval = Number.isInteger(hours) ? `${hours} ${hours === 1 ? 'hour' : 'hours'}` : `${config.votes.interval_minutes} minutes`

  const body = html`<nav class="muted" aria-label="Breadcrumb"><a href="/">Ranking</a> › <a href="${base}">${server.name}</a> › Vote</nav>
<div class="narrow">
<h1>Vote for ${server.name}${renderVerifiedMark(server.verifiedAt !== null)}</h1>
${renderNotice(state, server, config.votes.interval_minutes)}
<form class="card" method="post" action="${base}/voter" data-vote-form${dualStack ? html` data-ipv4-url="${config.site.ipv4_url}" data-ipv6-url="${config.site.ipv6_url}"` : ''}>
  <div class="field">
    <label for="pseudo">Your player name</label>
    <input id="pseudo" name="pseudo" value="${state.pseudo}" required minlength="3" maxlength="16" pattern="${PATTERN[server.edition]}"
      autocomplete="username" autocapitalize="off" spellcheck="false" aria-describedby="pseudo-hint">
    <span id="pseudo-hint" class="hint">${HINT[server.edition]}</span>
  </div>
  ${dualStack ? html`<input type="hidden" name="ipv4Token" value=""><input type="hidden" name="ipv6Token" value="">` : ''}
  ${captcha ? html`<div class="field">
    <altcha-widget challenge="/api/v1/vote-challenge" name="altcha"></altcha-widget>
    <noscript><p class="notice">The anti-bot check of this form runs in your browser: please enable JavaScript to vote.</p></noscript>
  </div>` : ''}
  <button type="submit" class="button-primary">Vote</button>
</form>
<p class="muted">One vote per ${editionLabel(server.edition)} player and per connection every ${interval}. Votes count for the current month (UTC).</p>
</div>`

  return renderLayout(config, {
    title: `Vote for ${server.name}`,
    description: `Vote for the Minecraft server ${server.name} once every ${interval} and help it climb the ranking.`,
    path: `${base}/voter`,
    styles: captcha ? [WIDGET_CSS_PATH] : [],
    scripts: ['/assets/site.js'],
    moduleScripts: captcha ? [WIDGET_PATH] : [],
  }, body)
}
