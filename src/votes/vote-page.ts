import { WIDGET_CSS_PATH, WIDGET_PATH } from '../captcha/routes.ts'
import type { Config } from '../config/load.ts'
import type { ApiError } from '../http/errors.ts'
import type { ImageHashes, Server } from '../servers/repo.ts'
import { BEDROCK_PSEUDO, JAVA_PSEUDO } from '../servers/pseudo.ts'
import { formatUtc } from '../pages/format.ts'
import { html } from '../pages/html.ts'
import { renderLayout } from '../pages/layout.ts'
import { editionLabel, renderIcon } from '../pages/server-parts.ts'
import { renderVerifiedMark } from '../pages/verified-mark.ts'

export interface VotePageState {
  pseudo: string // pre-filled
  error?: ApiError // the refused submission, shown above the form
  voted?: { pseudo: string; createdAt: number } // the vote just recorded: the thank-you instead of the form
}

// The server's own rules (src/servers/pseudo.ts) as HTML patterns (implicitly anchored; the length
// is minlength/maxlength), so a browser catches a typo before sending.
const unanchored = (r: RegExp) => r.source.replace(/^\^|\$$/g, '')
const PATTERN = { java: unanchored(JAVA_PSEUDO), bedrock: unanchored(BEDROCK_PSEUDO) }
const HINT = {
  java: 'Your Minecraft: Java Edition name: 3 to 16 letters, digits or underscores.',
  bedrock: 'Your Bedrock gamertag as the server sees it: 3 to 16 letters, digits, underscores or spaces, with a leading "." or "*" if the server adds one.',
}

// A refusal in the words of the page: the field is the "player name" players see, and the
// captcha is the anti-bot check (the JSON API keeps the parameter names in its messages).
function playerMessage(e: ApiError): string {
  const m = e.message
    .replace(/^pseudo\b/, 'Your player name')
    .replace(/^altcha: /, 'The anti-bot check: ')
  return m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? '' : '.')
}
const isNameError = (e: ApiError | undefined) => Boolean(e && e.errorCode === 'INVALID_PARAMETER' && e.message.startsWith('pseudo'))

// A time in UTC, with a place where site.js adds the same time in the visitor's own zone.
const renderTime = (ms: number) => {
  const iso = new Date(ms).toISOString()
  return html`<time datetime="${iso}">${formatUtc(ms)}</time><span data-local-time="${iso}"></span>`
}

function renderThanks(server: Server, voted: { pseudo: string; createdAt: number }, intervalMinutes: number) {
  const next = voted.createdAt + intervalMinutes * 60_000
  return html`<section class="notice notice-success" role="status" aria-labelledby="thanks">
  <h2 id="thanks">Thank you, ${voted.pseudo}!</h2>
  <p>Your vote for ${server.name} was recorded on ${formatUtc(voted.createdAt)}.</p>
  <p>You can vote again from ${renderTime(next)}.</p>
  <p><a class="button button-primary" href="/serveur/${server.slug}">Back to ${server.name}</a></p>
</section>`
}

function renderError(e: ApiError, server: Server) {
  const next = typeof e.extra.nextVoteAt === 'string' ? e.extra.nextVoteAt : null
  const message = e.errorCode === 'VOTE_TOO_SOON' && next
    ? html`You already voted for ${server.name} recently (with this name or from this connection). You can vote again from ${renderTime(Date.parse(next))}.`
    : playerMessage(e)
  return html`<div class="notice notice-error" role="alert" id="vote-error"><p>${message}</p></div>`
}

export function renderVotePage(config: Config, server: Server, images: ImageHashes, state: VotePageState): string {
  const base = `/serveur/${server.slug}`
  const captcha = config.votes.captcha === 'pow'
  const dualStack = Boolean(config.site.ipv4_url || config.site.ipv6_url)
  const hours = config.votes.interval_minutes / 60
  const interval = Number.isInteger(hours) ? `${hours} ${hours === 1 ? 'hour' : 'hours'}` : `${config.votes.interval_minutes} minutes`
  const nameError = isNameError(state.error)
  const describedBy = nameError ? 'vote-error pseudo-hint' : 'pseudo-hint'

  // The captcha solves itself as soon as the page opens (auto="onload"); a Vote pressed before it
  // is done is sent once it is (site.js), so there is nothing to tick.
  const form = html`<form class="card" method="post" action="${base}/voter" data-vote-form${dualStack ? html` data-ipv4-url="${config.site.ipv4_url}" data-ipv6-url="${config.site.ipv6_url}"` : ''}>
  <div class="field">
    <label for="pseudo">Your player name</label>
    <input id="pseudo" name="pseudo" value="${state.pseudo}" required minlength="3" maxlength="16" pattern="${PATTERN[server.edition]}"
      autocomplete="username" autocapitalize="off" spellcheck="false" aria-describedby="${describedBy}"${nameError ? html` aria-invalid="true"` : ''}>
    <span id="pseudo-hint" class="hint">${HINT[server.edition]}</span>
  </div>
  ${dualStack ? html`<input type="hidden" name="ipv4Token" value=""><input type="hidden" name="ipv6Token" value="">` : ''}
  ${captcha ? html`<div class="field">
    <altcha-widget challenge="/api/v1/vote-challenge" name="altcha" auto="onload"></altcha-widget>
    <noscript><p class="notice">The anti-bot check of this form runs in your browser: please enable JavaScript to vote.</p></noscript>
  </div>` : ''}
  <button type="submit" class="button-primary">Vote</button>
  <p class="muted" data-vote-status role="status" aria-live="polite"></p>
</form>
<p class="muted">One vote per ${editionLabel(server.edition)} player and per connection every ${interval}. Votes count for the current month (UTC).</p>`

  const body = html`<nav class="muted" aria-label="Breadcrumb"><a href="/">Ranking</a> › <a href="${base}">${server.name}</a> › Vote</nav>
<div class="narrow">
<div class="server-head">${renderIcon(server.slug, images, 'large')}<h1>Vote for ${server.name}${renderVerifiedMark(server.verifiedAt !== null)}</h1></div>
${state.voted ? renderThanks(server, state.voted, config.votes.interval_minutes) : html`${state.error ? renderError(state.error, server) : ''}
${form}`}
</div>`

  return renderLayout(config, {
    title: `Vote for ${server.name}`,
    description: `Vote for the Minecraft server ${server.name} once every ${interval} and help it climb the ranking.`,
    path: `${base}/voter`,
    styles: captcha && !state.voted ? [WIDGET_CSS_PATH] : [],
    scripts: ['/assets/site.js'],
    moduleScripts: captcha && !state.voted ? [WIDGET_PATH] : [],
  }, body)
}
