import type { Database } from 'bun:sqlite'
import { isIP } from 'node:net'
import type { Clock } from '../clock.ts'
import type { Config } from '../config/load.ts'
import { writeTx } from '../db/open.ts'
import { conflict, forbidden, invalidParameter, notFound } from '../http/errors.ts'
import { assertValid } from '../http/validation.ts'
import { newId } from '../ids.ts'
import { isPrivateAddress } from '../net/ip.ts'
import type { Server, ServersRepo, VoteTarget } from './repo.ts'
import { SLUG, ServerCreate, ServerPatch } from './schema.ts'

export interface ServersDeps {
  db: Database
  servers: ServersRepo
  clock: Clock
  config: Config
}

const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/
// Path segments the site itself uses next to /serveur/{slug}; a server may not take them.
const RESERVED_SLUGS = new Set(['new', 'edit', 'admin', 'api', 'dashboard', 'voter', 'static', 'assets'])

// Hosts are stored without brackets; a private IP literal or a localhost name is refused here
// (pings re-check what a hostname resolves to at send time).
export function checkHost(host: string, allowPrivate: boolean): string {
  const h = host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (!isIP(h) && !HOSTNAME.test(h)) throw invalidParameter('host must be a hostname or an IP address')
  if (!allowPrivate && ((isIP(h) && isPrivateAddress(h)) || h === 'localhost' || h.endsWith('.localhost'))) {
    throw invalidParameter('host must be a public address: private, loopback and reserved addresses are refused')
  }
  return h
}

export function checkName(name: string): string {
  const n = name.trim()
  if (n === '') throw invalidParameter('name must be 1 to 64 characters long')
  return n
}

export function checkWebsite(website: string): string {
  const w = website.trim()
  if (w === '') return w
  try {
    const u = new URL(w)
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href
  } catch { /* reported below */ }
  throw invalidParameter('website must be an http:// or https:// URL')
}

export function checkModes(modes: string[], allowed: readonly string[]): string[] {
  for (const m of modes) {
    if (!allowed.includes(m)) throw invalidParameter(`modes: "${m}" is not a game mode of this site (allowed: ${allowed.join(', ')})`)
  }
  return [...modes].sort()
}

// "Émeraude Valley!" → "emeraude-valley"; never empty, never a reserved word.
export function slugify(name: string): string {
  const base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '')
  return base && !RESERVED_SLUGS.has(base) ? base : `server${base ? `-${base}` : ''}`
}

function uniqueSlug(servers: ServersRepo, name: string): string {
  const base = slugify(name)
  if (!servers.slugExists(base)) return base
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`
    if (!servers.slugExists(candidate)) return candidate
  }
}

export function createServer(deps: ServersDeps, ownerId: string, input: ServerCreate): Server {
  assertValid(ServerCreate, input)
  const { config } = deps
  const name = checkName(input.name)
  const host = checkHost(input.host, config.network.allow_private_targets)
  const website = checkWebsite(input.website ?? '')
  const modes = checkModes(input.modes ?? [], config.servers.modes)
  if (input.slug !== undefined && (!SLUG.test(input.slug) || RESERVED_SLUGS.has(input.slug))) {
    throw invalidParameter(`slug must be 1 to 48 of a-z, 0-9 and "-", and not one of: ${[...RESERVED_SLUGS].join(', ')}`)
  }
  return writeTx(deps.db, () => {
    if (input.slug !== undefined && deps.servers.slugExists(input.slug)) throw conflict(`the slug "${input.slug}" is taken`)
    const now = deps.clock.now()
    return deps.servers.insert({
      id: newId(), ownerId, slug: input.slug ?? uniqueSlug(deps.servers, name), name, host,
      port: input.port ?? null, edition: input.edition ?? 'java', modes, version: (input.version ?? '').trim(),
      description: (input.description ?? '').trim(), website, hidden: false, createdAt: now, updatedAt: now,
    })
  })
}

export function updateServer(deps: ServersDeps, server: Server, patch: ServerPatch, actor: { isAdmin: boolean } = { isAdmin: false }): Server {
  assertValid(ServerPatch, patch)
  if (patch.hidden !== undefined && !actor.isAdmin) throw forbidden('only an administrator can hide or show a server')
  const { config } = deps
  const next: Server = {
    ...server,
    ...(patch.name !== undefined && { name: checkName(patch.name) }),
    ...(patch.host !== undefined && { host: checkHost(patch.host, config.network.allow_private_targets) }),
    ...(patch.port !== undefined && { port: patch.port }),
    ...(patch.edition !== undefined && { edition: patch.edition }),
    ...(patch.modes !== undefined && { modes: checkModes(patch.modes, config.servers.modes) }),
    ...(patch.version !== undefined && { version: patch.version.trim() }),
    ...(patch.description !== undefined && { description: patch.description.trim() }),
    ...(patch.website !== undefined && { website: checkWebsite(patch.website) }),
    ...(patch.hidden !== undefined && { hidden: patch.hidden }),
    updatedAt: deps.clock.now(),
  }
  writeTx(deps.db, () => deps.servers.update(next))
  return next
}

// Removes the server with everything that hangs on it (votes, keys, channels, deliveries,
// statistics: the schema cascades).
export function deleteServer(deps: ServersDeps, server: Server): void {
  writeTx(deps.db, () => { deps.servers.remove(server.id) })
}

// The server named by `slug`, if the user may manage it: its owner, or an admin.
export function ownedServer(servers: ServersRepo, user: { id: string; isAdmin: boolean }, slug: string): Server {
  const server = servers.bySlug(slug)
  if (!server) throw notFound(`no server with the slug "${slug}"`)
  if (server.ownerId !== user.id && !user.isAdmin) throw forbidden('this server belongs to another account')
  return server
}

// The server named by `slug` as the public sees it: a hidden server does not exist for them.
export const listedServer = (servers: ServersRepo, slug: string): Server => listed(servers.bySlug(slug), slug)

// The same, with only what recording a vote needs (the vote path's lookup).
export const listedVoteTarget = (servers: ServersRepo, slug: string): VoteTarget => listed(servers.voteTarget(slug), slug)

function listed<T extends { hidden: boolean }>(server: T | null, slug: string): T {
  if (!server || server.hidden) throw notFound(`no server with the slug "${slug}" is listed`)
  return server
}
