import { WIDGET_CSS_PATH, WIDGET_PATH } from '../captcha/routes.ts'
import type { ApiError } from '../http/errors.ts'
import { isolateText } from '../../web/assets/translate.js'
import type { ImageHashes, Server } from '../servers/repo.ts'
import { BEDROCK_PSEUDO, JAVA_PSEUDO } from '../servers/pseudo.ts'
import type { Tr } from '../pages/text.ts'
import { html } from '../pages/html.ts'
import { pageErrorText, renderLayout, type PageView } from '../pages/layout.ts'
import { editionLabel, renderIcon } from '../pages/server-parts.ts'
import { renderVerifiedMark } from '../pages/verified-mark.ts'

export interface VotePageState {
  pseudo: string // pre-filled
  error?: ApiError // the refused submission, shown above the form
  voted?: { pseudo: string; createdAt: number } // the vote just recorded: the thank-you instead of the form
}

// The server's own rules (src/servers/pseudo.ts) as HTML patterns (implicitly anchored), so a
// browser catches a typo before sending. The vote trims the name, so spaces around it pass (a phone
// keyboard adds one after a word it completes), and the name inside them is 3 to 16 characters
// (minlength/maxlength count the spaces too).
const unanchored = (r: RegExp) => r.source.replace(/^\^|\$$/g, '')
const trimmed = (r: RegExp) => ` *(?=\\S.{1,14}\\S *$)(?:${unanchored(r)}) *`
const PATTERN = { java: trimmed(JAVA_PSEUDO), bedrock: trimmed(BEDROCK_PSEUDO) }

// A refusal in the words of the page: the field is the "player name" players see, the captcha
// is the anti-bot check (the JSON API keeps its parameter names in its messages).
function playerMessage(tr: Tr, e: ApiError, server: Server): string {
  if (e.field === 'pseudo') return tr.t(server.edition === 'java' ? 'vote.badName.java' : 'vote.badName.bedrock')
  return pageErrorText(tr, e)
}
const isNameError = (e: ApiError | undefined) => e?.field === 'pseudo'

// A time in UTC, with a place where site.js adds the same time in the visitor's own zone.
const renderTime = (tr: Tr, ms: number) => {
  const iso = new Date(ms).toISOString()
  return html`<time datetime="${iso}">${tr.dateTime(ms)}</time><span data-local-time="${iso}"></span>`
}

// The thank-you stays at its address until the next vote is possible, and that address is what a
// player copies from the address bar to invite friends: they get a way to their own vote.
function renderThanks(tr: Tr, server: Server, voted: { pseudo: string; createdAt: number }, intervalMinutes: number) {
  const next = voted.createdAt + intervalMinutes * 60_000
  return html`<section class="notice notice-success" role="status" aria-labelledby="thanks">
  <h2 id="thanks">${tr.t('vote.thanks', { pseudo: voted.pseudo })}</h2>
  <p>${tr.t('vote.recorded', { name: server.name, time: tr.dateTime(voted.createdAt) })}</p>
  <p>${tr.html('vote.again', { time: renderTime(tr, next) })}</p>
  <p><a class="button button-primary" href="/serveur/${server.slug}">${tr.t('vote.back', { name: server.name })}</a></p>
  <p><a href="/serveur/${server.slug}/voter">${tr.t('vote.notYou', { pseudo: voted.pseudo })}</a></p>
</section>`
}

// The page a refused vote gets is a new page: an alert already in it is not read out by screen
// readers, so the focus goes where the reason is read. A refused name: the field (aria-invalid,
// described by the reason); anything else: the reason itself.
function renderError(tr: Tr, e: ApiError, server: Server) {
  const next = typeof e.extra.nextVoteAt === 'string' ? e.extra.nextVoteAt : null
  const message = e.errorCode === 'VOTE_TOO_SOON' && next
    ? tr.html('vote.tooSoon', { name: server.name, time: renderTime(tr, Date.parse(next)) })
    : playerMessage(tr, e, server)
  return html`<div class="notice notice-error" role="alert" id="vote-error"${isNameError(e) ? '' : html` tabindex="-1" autofocus`}><p>${message}</p></div>`
}

// "2 hours", "90 minutes": the vote interval as people say it.
function intervalText(tr: Tr, minutes: number): string {
  return minutes % 60 === 0 ? tr.n('vote.hours', minutes / 60) : tr.n('vote.minutes', minutes)
}

export function renderVotePage(view: PageView, server: Server, images: ImageHashes, state: VotePageState): string {
  const { config, tr } = view
  const base = `/serveur/${server.slug}`
  const captcha = config.votes.captcha === 'pow'
  const dualStack = Boolean(config.site.ipv4_url || config.site.ipv6_url)
  const interval = intervalText(tr, config.votes.interval_minutes)
  const nameError = isNameError(state.error)
  const describedBy = nameError ? 'vote-error pseudo-hint' : 'pseudo-hint'

  // The captcha solves itself as soon as the page opens (auto="onload"); a Vote pressed before it
  // is done is sent once it is (site.js), so there is nothing to tick. The widget speaks the
  // page's language (its messages come from the catalogs: src/captcha/routes.ts).
  const form = html`<form class="card" method="post" action="${base}/voter" data-vote-form${dualStack ? html` data-ipv4-url="${config.site.ipv4_url}" data-ipv6-url="${config.site.ipv6_url}"` : ''}>
  <div class="field">
    <label for="pseudo">${tr.t('vote.pseudo')}</label>
    <input id="pseudo" name="pseudo" value="${state.pseudo}" required minlength="3" maxlength="16" pattern="${PATTERN[server.edition]}"
      autocomplete="username" autocapitalize="off" spellcheck="false" aria-describedby="${describedBy}"${nameError ? html` aria-invalid="true" autofocus` : ''}
      data-missing="${tr.t('vote.missingName')}" data-invalid="${tr.t(server.edition === 'java' ? 'vote.badName.java' : 'vote.badName.bedrock')}">
    <span id="pseudo-hint" class="hint">${tr.t(server.edition === 'java' ? 'vote.hint.java' : 'vote.hint.bedrock')}</span>
  </div>
  ${dualStack ? html`<input type="hidden" name="ipv4Token" value=""><input type="hidden" name="ipv6Token" value="">` : ''}
  ${captcha ? html`<div class="field">
    <altcha-widget challenge="/api/v1/vote-challenge" name="altcha" auto="onload" language="${tr.lang}"></altcha-widget>
    <noscript><p class="notice">${tr.t('vote.noscript')}</p></noscript>
  </div>` : ''}
  <button type="submit" class="button-primary">${tr.t('common.vote')}</button>
  <p class="muted" data-vote-status role="status" aria-live="polite"></p>
</form>
<p class="muted">${tr.t('vote.rules', { edition: editionLabel(tr, server.edition), interval })}</p>`

  const body = html`<nav class="muted crumbs" aria-label="${tr.t('common.breadcrumb')}"><a href="/">${tr.t('layout.ranking')}</a> › <a href="${base}">${isolateText(server.name)}</a> › ${tr.t('common.vote')}</nav>
<div class="narrow">
<div class="server-head">${renderIcon(server.slug, images, 'large')}<h1>${tr.t('common.voteFor', { name: server.name })}${renderVerifiedMark(tr, server.verifiedAt !== null)}</h1></div>
${state.voted ? renderThanks(tr, server, state.voted, config.votes.interval_minutes) : html`${state.error ? renderError(tr, state.error, server) : ''}
${form}`}
</div>`

  return renderLayout(view, {
    title: tr.t('common.voteFor', { name: server.name }),
    description: tr.t('vote.description', { name: server.name, interval }),
    path: `${base}/voter`,
    styles: captcha && !state.voted ? [WIDGET_CSS_PATH] : [],
    scripts: ['/assets/site.js'],
    moduleScripts: captcha && !state.voted ? [WIDGET_PATH] : [],
  }, body)
}
