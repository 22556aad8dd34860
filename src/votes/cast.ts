import { checkCaptcha, type CaptchaDeps } from '../captcha/service.ts'
import type { Config } from '../config/load.ts'
import { ApiError, refusal } from '../http/errors.ts'
import type { SiteUrl } from '../http/site-url.ts'
import { checkPseudo } from '../servers/pseudo.ts'
import { readAddressToken } from './address-token.ts'
import { castScript, voteTime, type RecordedVote, type VoteDeps, type VoteJob } from './service.ts'
import type { FoundTarget, VoteTargets } from './targets.ts'
import type { VoteWriter } from './writer.ts'

// A vote sent by a player through the vote form (or its JSON twin): the checks in front of
// recordVote, cheapest first, so that a mistyped name does not burn a solved captcha.

export interface VoteForm {
  pseudo?: unknown
  altcha?: unknown
  ipv4Token?: unknown
  ipv6Token?: unknown
}

// `voteWriter`: the vote writer's thread, while the site serves on SQLite (src/votes/writer.ts).
export type CastDeps = VoteDeps & CaptchaDeps & { siteUrl: SiteUrl; voteWriter?: VoteWriter | null }

const text = (v: unknown) => (typeof v === 'string' ? v : '')

// The origins the vote form is served from: the site, and its single-family hosts when
// dual-stack capture is configured (a player may have landed on one of them).
export const siteOrigins = (deps: { config: Config; siteUrl: SiteUrl }) =>
  [...deps.siteUrl.origins(), ...[deps.config.site.ipv4_url, deps.config.site.ipv6_url].filter(Boolean).map((u) => new URL(u).origin)]

// A vote is a state change a hostile page could make a visitor's browser send (each visitor
// being a fresh pseudo and address, that is vote stuffing). Browsers send Origin with every
// cross-site POST: a present Origin must be one of the site's own. Requests without Origin are
// not from a browser page of another site, and meet the captcha and the limits like any other.
export function checkVoteOrigin(request: Request, deps: { config: Config; siteUrl: SiteUrl }): void {
  const origin = request.headers.get('origin')
  if (origin === null) {
    if (request.headers.get('sec-fetch-site') === 'cross-site') throw refusal('CROSS_SITE', 'cross-site vote refused: votes are only accepted from this site\'s own vote page')
    return
  }
  const own = siteOrigins(deps)
  // A site whose base_url names another address than the one its players open refuses every
  // vote here: the message says what was expected and which key sets it.
  if (!own.includes(origin)) {
    const [key, fix] = deps.siteUrl.configured ? ['set by site.base_url', 'change'] : ['site.base_url is not set', 'set']
    throw refusal('CROSS_SITE', `cross-site vote refused: it comes from ${origin}, but votes are only accepted from this site's own vote page at ${own.join(', ')} (${key}): open the vote page there, or ${fix} site.base_url`)
  }
}

// The name checked against the rules of the server's edition; a name refused by a remembered
// server is checked again against the server as it is now (its edition may have changed).
async function namePasses(targets: VoteTargets, found: FoundTarget, typed: string): Promise<string> {
  try {
    return checkPseudo(typed, found.target.edition)
  } catch (e) {
    if (!found.remembered) throw e
    return checkPseudo(typed, (await targets.find(found.target.slug, true)).target.edition)
  }
}

// Resolves once the vote is durable. Votes arriving together share one commit, on the vote
// writer's thread while the site serves on SQLite (src/votes/writer.ts), or else in the group
// commit of the site's own connection (src/db/group-commit.ts): most of a vote's cost is its
// transaction. `found`: the server as the vote path found it in `targets` (src/votes/targets.ts),
// confirmed inside the transaction.
export async function castVote(deps: CastDeps, targets: VoteTargets, found: FoundTarget, form: VoteForm, address: string | null): Promise<RecordedVote> {
  const pseudo = await namePasses(targets, found, text(form.pseudo).trim())
  const addresses = [address]
  const now = deps.clock.now()
  const { ipv4_url, ipv6_url } = deps.config.site
  if (ipv4_url && text(form.ipv4Token)) addresses.push(readAddressToken(deps.secret, text(form.ipv4Token), 4, now, 'ipv4Token'))
  if (ipv6_url && text(form.ipv6Token)) addresses.push(readAddressToken(deps.secret, text(form.ipv6Token), 6, now, 'ipv6Token'))
  if (deps.config.votes.captcha === 'pow') await checkCaptcha(deps, text(form.altcha) || undefined)
  const job: VoteJob = { found: { target: found.target, version: found.version }, pseudo, addresses, ...voteTime(deps) }
  let cast
  try {
    cast = await (deps.voteWriter?.write(job) ?? deps.store.write((tx) => castScript(tx, job), { shared: true }))
  } catch (e) {
    if (!(e instanceof ApiError)) await notListedAnyMore(targets, found)
    throw e
  }
  if (cast.reread) targets.remember(cast.reread.target, cast.reread.version)
  return cast.recorded
}

// After a vote's write failed (not refused): its server may have been deleted or hidden meanwhile
// (on PostgreSQL, a deletion committed while the vote's transaction ran fails its insert). The vote
// is then answered as one for a server no longer listed (404), as SQLite answers it, rather than
// as an internal error; otherwise (or if the server cannot be read either) the failure stands.
async function notListedAnyMore(targets: VoteTargets, found: FoundTarget): Promise<void> {
  try {
    await targets.find(found.target.slug, true)
  } catch (e) {
    if (e instanceof ApiError) throw e
  }
}
