import type { SchemaOptions } from '@sinclair/typebox'
import { t } from 'elysia'
import { Int, Iso, merged } from '../http/schema.ts'

// Field rules of a listed server, shared by the HTTP API and the command line, and the owner
// API's answers.
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/

// The two Minecraft editions a server can be: they differ in ping protocol, default port and the
// player names they accept.
export const editionSchema = (options?: SchemaOptions) => t.Union([t.Literal('java'), t.Literal('bedrock')], options)
const EditionValue = editionSchema()
export type Edition = typeof EditionValue.static
export const EDITIONS: readonly Edition[] = ['java', 'bedrock']

export const ServerFields = {
  name: t.String({ minLength: 1, maxLength: 64, error: 'name must be 1 to 64 characters long', examples: ['Emerald Valley'] }),
  host: t.String({ minLength: 1, maxLength: 253, error: 'host must be a hostname or an IP address', examples: ['play.example.com'] }),
  port: t.Integer({ minimum: 1, maximum: 65535, error: 'port must be an integer from 1 to 65535', examples: [25565] }),
  edition: editionSchema({ error: 'edition must be "java" or "bedrock"' }),
  slug: t.String({ pattern: SLUG.source, error: 'slug must be 1 to 48 of a-z, 0-9 and "-", not starting or ending with "-"', examples: ['emerald-valley'] }),
  modes: t.Array(t.String({ maxLength: 32 }), { maxItems: 8, uniqueItems: true, error: 'modes must be a list of at most 8 distinct game modes' }),
  version: t.String({ maxLength: 32, error: 'version must be at most 32 characters long', examples: ['1.21.4'] }),
  description: t.String({ maxLength: 4000, error: 'description must be at most 4000 characters long' }),
  website: t.String({ maxLength: 300, error: 'website must be an http:// or https:// URL of at most 300 characters' }),
}

const f = ServerFields
export const ServerCreate = t.Object({
  name: f.name, host: f.host, port: t.Optional(f.port), edition: t.Optional(f.edition), slug: t.Optional(f.slug),
  modes: t.Optional(f.modes), version: t.Optional(f.version), description: t.Optional(f.description), website: t.Optional(f.website),
}, { additionalProperties: false })
export type ServerCreate = typeof ServerCreate.static

// The slug is stable once created, so it cannot be changed; port null returns to the default.
// hidden is for administrators only (hiding a server takes it out of the ranking and pages).
export const ServerPatch = t.Object({
  name: t.Optional(f.name), host: t.Optional(f.host), port: t.Optional(t.Union([f.port, t.Null()], { error: 'port must be an integer from 1 to 65535, or null for the default' })),
  edition: t.Optional(f.edition), modes: t.Optional(f.modes), version: t.Optional(f.version), description: t.Optional(f.description),
  website: t.Optional(f.website), hidden: t.Optional(t.Boolean({ error: 'hidden must be true or false' })),
}, { additionalProperties: false })
export type ServerPatch = typeof ServerPatch.static

export const SlugParams = t.Object({ slug: t.String({ description: 'the server\'s slug' }) })

// What an owner (or an admin) sees of a server in the owner API.
export const OwnerServerJson = t.Object({
  id: t.String(),
  slug: t.String(),
  name: t.String(),
  description: t.String(),
  edition: editionSchema(),
  host: t.String(),
  port: t.Union([Int(), t.Null()], { description: 'null: the edition\'s default (SRV record or 25565 for Java, 19132 for Bedrock)' }),
  address: t.String({ description: '"host" or "host:port", as players type it' }),
  version: t.String(),
  modes: t.Array(t.String()),
  website: t.String(),
  hidden: t.Boolean({ description: 'hidden by an administrator: not in the ranking nor the public pages' }),
  verified: t.Boolean({ description: 'the owner proved they run the server: the listing\'s token was read in its MOTD (GET|POST …/verification). Changing the host, port or edition resets it' }),
  verifiedAt: t.Union([Iso, t.Null()], { description: 'when the token was last read in the MOTD; null while not verified' }),
  listed: t.Boolean({ description: 'on the public site: in the ranking, with its pages, vote page and public API' }),
  unlistedReason: t.Union([t.Literal('hidden'), t.Literal('disabled'), t.Literal('claimed'), t.Literal('unverified'), t.Null()], {
    description: 'why the server is off the public site: `hidden` by an administrator; `disabled`: an administrator disabled its owner\'s account; `claimed`: another account proved it runs the same address (host and port), so this unverified listing is not shown; `unverified`: the site requires proof of ownership (`listing.require_verification`) and this server has none yet. Null when listed',
  }),
  rank: t.Union([Int(), t.Null()], { description: 'this month\'s rank; null while off the public site' }),
  monthlyVotes: Int(),
  totalVotes: Int(),
  voteUrl: t.String(),
  badgeUrl: t.String(),
  iconUrl: t.String({ description: 'the server icon (PNG, 64×64 at most): the one its Java status ping sends, else the site\'s default icon. The address changes when the icon does.' }),
  bannerUrl: t.Union([t.String(), t.Null()], { description: 'the 468×60 banner the owner uploaded, or null. The address changes when the banner does.' }),
  createdAt: Iso,
  updatedAt: Iso,
})
export type OwnerServerJson = typeof OwnerServerJson.static

// The last ping, for the owner's lists ("players online" in My servers); null fields until the
// server's first ping.
export const LiveStatusJson = t.Object({
  online: t.Union([t.Boolean(), t.Null()], { description: 'whether the last ping answered; null before the first ping' }),
  players: t.Union([t.Object({ online: Int(), max: Int() }), t.Null()]),
  lastPingAt: t.Union([Iso, t.Null()]),
  pingError: t.Union([t.String(), t.Null()], { description: 'why the last ping failed' }),
})
export type LiveStatusJson = typeof LiveStatusJson.static

export const ServerAnswer = t.Object({ ok: t.Literal(true), server: OwnerServerJson })
export const OwnerListItem = merged(OwnerServerJson, LiveStatusJson)
export const OwnerList = t.Object({ ok: t.Literal(true), servers: t.Array(OwnerListItem) })
const Owner = t.Object({ id: t.String(), email: t.String() })
// Another account's listing of the same address, as the admin sees it.
const AddressConflict = t.Object({ slug: t.String(), name: t.String(), owner: Owner, verified: t.Boolean() })
export const AdminList = t.Object({
  ok: t.Literal(true),
  servers: t.Array(merged(OwnerListItem, t.Object({ owner: Owner, conflicts: t.Array(AddressConflict) }))),
})
