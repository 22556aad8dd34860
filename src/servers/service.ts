import type { AuditRepo } from '../audit/repo.ts'
import { audit, auditOnServer, type ServerActor } from '../audit/service.ts'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { use, type Awaitable, type StoreWrites, type TxScript } from '../db/store.ts'
import { ApiError, conflict, invalidParameter, notFound, refusal } from '../http/errors.ts'
import { assertValid } from '../http/validation.ts'
import { newId } from '../ids.ts'
import type { Scheduler } from '../jobs/scheduler.ts'
import type { Lookup } from '../net/guard.ts'
import { endsInNumber, ipv4FromNumeric, isIP, reservedKind } from '../net/ip.ts'
import type { ListingPolicy, Server, ServersRepo, VoteTarget } from './repo.ts'
import { PURGE_TASK } from './purge.ts'
import { SLUG, ServerCreate, ServerPatch } from './schema.ts'

interface ServersTx {
  servers: ServersRepo
  audit: AuditRepo
  // VotesRepo.serialise: the server's queue of votes.
  votes: { serialise(serverId: string): Awaitable<void> }
}

// Who changes a server: its owner, or an administrator (whose moderation is audited).
export interface Actor {
  id: string
  email: string
  isAdmin: boolean
}

export interface ServersDeps {
  store: ServersTx & StoreWrites<ServersTx>
  clock: Clock
  config: Config
  // Name resolution for the save-time host check; tests inject one.
  lookup: Lookup
}

const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/
// Path segments the site itself uses next to /serveur/{slug}; a server may not take them.
const RESERVED_SLUGS = new Set(['new', 'edit', 'admin', 'api', 'dashboard', 'voter', 'static', 'assets'])

// A host as stored: without brackets, in lower case, a numeric IPv4 form (2130706433,
// 0x7f000001, 127.1, 0177.0.0.1) as the dotted quad that browsers and getaddrinfo read in it, so
// the address shown and checked is the one connected to. Syntax only: see checkServerHost.
export function checkHost(host: string): string {
  const h = host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (isIP(h)) return h
  if (endsInNumber(h)) {
    const address = ipv4FromNumeric(h)
    if (!address) throw invalidParameter(`host ${host.trim()} is not a valid IPv4 address (and a host name cannot end in a number)`, 'host')
    return address
  }
  if (!HOSTNAME.test(h)) throw invalidParameter('host must be a hostname or an IP address', 'host')
  return h
}

const PUBLIC_ONLY = 'votelist only lists public servers (network.allow_private_targets is off)'
const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a')

// What a save-time lookup found; a name that does not resolve, or not within the ping timeout,
// finds nothing.
async function addressesOf(deps: ServersDeps, host: string): Promise<{ address: string }[]> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timed out')), deps.config.stats.ping_timeout_seconds * 1000) })
  try {
    return await Promise.race([deps.lookup(host), late])
  } catch {
    return []
  } finally {
    clearTimeout(timer)
  }
}

// The pinger's rule, at save time: unless network.allow_private_targets, a loopback, private,
// link-local, CGNAT, multicast or reserved target is refused, saying which, whether it is given
// as an IP literal or numeric form, as localhost, or as a name that resolves to one. A name that
// does not resolve (yet) is accepted: DNS is often set up after the listing, and the ping shows
// "could not be resolved" until it is. The pinger resolves again, and checks, at every ping.
export async function checkServerHost(deps: ServersDeps, host: string): Promise<string> {
  const given = host.trim()
  const h = checkHost(host)
  if (deps.config.network.allow_private_targets) return h
  if (isIP(h)) {
    const kind = reservedKind(h)
    if (!kind) return h
    const what = given.toLowerCase().replace(/^\[(.*)\]$/, '$1') === h ? `${article(kind)} ${kind} address` : `the ${kind} address ${h}`
    throw invalidParameter(`host ${given} is ${what}: ${PUBLIC_ONLY}`, 'host')
  }
  const name = h.replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) throw invalidParameter(`host ${given} is this machine (loopback): ${PUBLIC_ONLY}`, 'host')
  for (const { address } of await addressesOf(deps, h)) {
    const kind = reservedKind(address)
    if (kind) throw invalidParameter(`host ${given} resolves to the ${kind} address ${address}: ${PUBLIC_ONLY}`, 'host')
  }
  return h
}

// Text an owner types must be text: no control character (tab and line breaks only where the
// field has lines) and no unpaired surrogate half, which JSON and XML readers refuse and which
// PostgreSQL cannot store as typed (U+0000), so the two backends would keep different names.
const ONE_LINE_REFUSED = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const LINES_REFUSED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

function checkText(field: string, text: string, lines = false): string {
  const bad = (lines ? LINES_REFUSED : ONE_LINE_REFUSED).exec(text)
  if (bad) {
    const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
    const what = bad[0] >= '\ud800' && bad[0] <= '\udfff' ? `an unpaired surrogate (${code})` : `a control character (${code})`
    throw invalidParameter(`${field} must be plain text: it contains ${what} at position ${bad.index + 1}`, field)
  }
  return text
}

export function checkName(name: string): string {
  const n = checkText('name', name.trim())
  if (n === '') throw invalidParameter('name must be 1 to 64 characters long', 'name')
  return n
}

export function checkWebsite(website: string): string {
  const w = website.trim()
  if (w === '') return w
  try {
    const u = new URL(w)
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href
  } catch { /* reported below */ }
  throw invalidParameter('website must be an http:// or https:// URL', 'website')
}

export function checkModes(modes: string[], allowed: readonly string[]): string[] {
  for (const m of modes) {
    if (!allowed.includes(m)) throw invalidParameter(`modes: "${m}" is not a game mode of this site (allowed: ${allowed.join(', ')})`, 'modes')
  }
  return [...modes].sort()
}

// "Émeraude Valley!" → "emeraude-valley"; never empty, never a reserved word.
export function slugify(name: string): string {
  const base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '')
  return base && !RESERVED_SLUGS.has(base) ? base : `server${base ? `-${base}` : ''}`
}

function* uniqueSlug(tx: ServersTx, name: string): TxScript<string> {
  const base = slugify(name)
  if (!(yield* use(tx.servers.slugExists(base)))) return base
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`
    if (!(yield* use(tx.servers.slugExists(candidate)))) return candidate
  }
}

export async function createServer(deps: ServersDeps, ownerId: string, input: ServerCreate): Promise<Server> {
  assertValid(ServerCreate, input)
  const { config } = deps
  const name = checkName(input.name)
  const host = await checkServerHost(deps, input.host)
  const website = checkWebsite(input.website ?? '')
  const modes = checkModes(input.modes ?? [], config.servers.modes)
  if (input.slug !== undefined && (!SLUG.test(input.slug) || RESERVED_SLUGS.has(input.slug))) {
    throw invalidParameter(`slug must be 1 to 48 of a-z, 0-9 and "-", and not one of: ${[...RESERVED_SLUGS].join(', ')}`, 'slug')
  }
  return deps.store.write(function* (tx) {
    yield* use(tx.servers.serialiseCreation())
    if (input.slug !== undefined && (yield* use(tx.servers.slugExists(input.slug)))) throw conflict(`the slug "${input.slug}" is taken`, 'slug')
    const slug = input.slug ?? (yield* uniqueSlug(tx, name))
    const now = deps.clock.now()
    return yield* use(tx.servers.insert({
      id: newId(), ownerId, slug, name, host,
      port: input.port ?? null, edition: input.edition ?? 'java', modes, version: checkText('version', (input.version ?? '').trim()),
      description: checkText('description', (input.description ?? '').trim(), true), website, hidden: false, createdAt: now, updatedAt: now,
    }))
  })
}

export async function updateServer(deps: ServersDeps, server: Server, patch: ServerPatch, actor: Actor): Promise<Server> {
  assertValid(ServerPatch, patch)
  if (patch.hidden !== undefined && !actor.isAdmin) throw refusal('ADMINS_ONLY', 'only an administrator can hide or show a server')
  const { config } = deps
  const changes: Partial<Server> = {
    ...(patch.name !== undefined && { name: checkName(patch.name) }),
    ...(patch.host !== undefined && { host: await checkServerHost(deps, patch.host) }),
    ...(patch.port !== undefined && { port: patch.port }),
    ...(patch.edition !== undefined && { edition: patch.edition }),
    ...(patch.modes !== undefined && { modes: checkModes(patch.modes, config.servers.modes) }),
    ...(patch.version !== undefined && { version: checkText('version', patch.version.trim()) }),
    ...(patch.description !== undefined && { description: checkText('description', patch.description.trim(), true) }),
    ...(patch.website !== undefined && { website: checkWebsite(patch.website) }),
    ...(patch.hidden !== undefined && { hidden: patch.hidden }),
  }
  // Applied to the row as it is now: the host check may have waited for name resolution, during
  // which another change may have been saved, or the server deleted.
  return deps.store.write(function* (tx) {
    const current = yield* use(tx.servers.byId(server.id))
    if (!current) throw notFound(`no server with the slug "${server.slug}"`)
    const now = deps.clock.now()
    const next: Server = { ...current, ...changes, updatedAt: now }
    yield* use(tx.servers.update(next))
    // The proof of ownership was read at the old address (and protocol): it says nothing of the new one.
    if (next.verifiedAt !== null && !sameAddress(current, next)) {
      yield* use(tx.servers.setVerified(next.id, null))
      next.verifiedAt = null
    }
    const target = { type: 'server' as const, id: current.id, label: current.name }
    if (changes.hidden !== undefined && changes.hidden !== current.hidden) {
      yield* audit(tx, now, actor, changes.hidden ? 'server.hide' : 'server.show', target)
    }
    // An administrator editing another account's server: which fields changed (not their values).
    const edited = (Object.keys(changes) as (keyof Server)[]).filter((k) => k !== 'hidden' && JSON.stringify(changes[k]) !== JSON.stringify(current[k]))
    if (actor.id !== current.ownerId && edited.length > 0) yield* audit(tx, now, actor, 'server.update', target, { fields: edited.join(', ') })
    return next
  })
}

// The address a listing claims, as the repositories compare it (server.claim): the host in lower
// case without a final dot, and the port, the edition's default when none is given. A name and
// an IP address are different claims even when the name points to that address: many servers
// may share one address behind a proxy that routes by name.
export function claimOf(s: Pick<Server, 'host' | 'port' | 'edition'>): string {
  return `${s.host.toLowerCase().replace(/\.$/, '')}:${s.port ?? (s.edition === 'bedrock' ? 19132 : 25565)}`
}

const sameAddress = (a: Server, b: Server) => claimOf(a) === claimOf(b) && a.edition === b.edition

// The site's rule of which servers the public sees, beside each server's own state.
export const listingPolicy = (config: Config): ListingPolicy => ({ requireVerification: config.listing.require_verification })

// Deletes the server: at once it is off every list and lookup, its slug free, its keys and
// delivery targets gone; its votes, deliveries and statistics are removed afterwards by the purge
// (src/servers/purge.ts), which the scheduler starts at once. An administrator deleting another
// account's server is written to the audit log.
export async function deleteServer(deps: { store: StoreWrites<ServersTx>; clock: Clock; scheduler?: Pick<Scheduler, 'wake'> }, server: Server, actor: Actor): Promise<void> {
  await deps.store.write(function* (tx) {
    const now = deps.clock.now()
    if (yield* markServerDeleted(tx, server.id, now)) yield* auditOnServer(tx, now, { actor, server }, 'server.delete', { slug: server.slug })
  })
  deps.scheduler?.wake(PURGE_TASK)
}

// The first part of deleting a server (src/servers/purge-sql.ts), in the server's queue of votes
// (PostgreSQL): a vote under way is written before, and one waiting for its turn finds the server
// deleted after (VotesRepo.recent), instead of being written to a server that is gone. False when
// there is no such server (or it was deleted already). Deleting an account runs it for each of
// its servers (src/admin/users.ts).
export function* markServerDeleted(tx: Pick<ServersTx, 'servers' | 'votes'>, serverId: string, at: number): TxScript<boolean> {
  yield* use(tx.votes.serialise(serverId))
  return yield* use(tx.servers.markDeleted(serverId, at))
}

// The server named by `slug`, if the user may manage it: its owner, or an admin.
export async function ownedServer(servers: ServersRepo, user: { id: string; isAdmin: boolean }, slug: string): Promise<Server> {
  const server = await servers.bySlug(slug)
  if (!server) throw notFound(`no server with the slug "${slug}"`)
  if (server.ownerId !== user.id && !user.isAdmin) throw refusal('NOT_YOURS', 'this server belongs to another account')
  return server
}

// The same server with who changes it, for a change the audit log records when an administrator
// makes it on another account's server (auditOnServer).
export async function ownedServerBy(servers: ServersRepo, user: ServerActor['actor'] & { isAdmin: boolean }, slug: string): Promise<ServerActor> {
  return { actor: user, server: await ownedServer(servers, user, slug) }
}

// The server named by `slug` as the public sees it: a server off the public site (hidden, its
// owner disabled, claimed by another account, or unverified where the site requires proof) does
// not exist for them (src/servers/listed.ts).
export async function listedServer(servers: ServersRepo, slug: string): Promise<Server> {
  const server = await servers.listedBySlug(slug)
  if (!server) throw notListed(slug)
  return server
}

// The same, with only what recording a vote needs (the vote path's lookup).
export async function listedVoteTarget(servers: ServersRepo, slug: string): Promise<VoteTarget> {
  return listedTarget(slug, await servers.voteTarget(slug))
}

// What a vote records of the server a voteTarget() row names, or the 404 when it is not listed.
export function listedTarget(slug: string, found: (VoteTarget & { listed: boolean }) | null): VoteTarget {
  if (!found?.listed) throw notListed(slug)
  return { id: found.id, slug: found.slug, name: found.name, edition: found.edition }
}

export const notListed = (slug: string) => new ApiError(404, 'NOT_FOUND', `no server with the slug "${slug}" is listed`, {}, {}, 'slug')
