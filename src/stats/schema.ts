import { t } from 'elysia'
import { Int, Iso } from '../http/schema.ts'
import { editionSchema } from '../servers/schema.ts'
import { LANGUAGES } from '../i18n/catalogs.ts'
import { BADGE_THEMES } from './badge.ts'

// Request and response shapes of the public statistics API; the OpenAPI docs are generated from them.

// The ranges of a history (src/stats/history.ts says where each one is read from).
export const RANGE_NAMES = ['24h', '7d', '30d', '90d', '1y', 'all'] as const
export type Range = (typeof RANGE_NAMES)[number]

const range = t.Optional(t.UnionEnum(RANGE_NAMES, {
  default: '24h', description: 'Time range; the step follows: 24h → 5 min, 7d → 1 h, 30d → 6 h, 90d and 1y → 1 d, all → 1 w',
  error: `range must be one of ${RANGE_NAMES.join(', ')}`,
}))

export const HistoryQuery = t.Object({
  range,
  format: t.Optional(t.UnionEnum(['json', 'csv'], { default: 'json', description: 'csv for a CSV download (columns t,avg,max)', error: 'format must be one of json, csv' })),
})

export const GlobalQuery = t.Object({
  range,
  // A union of literals, not t.UnionEnum: Elysia fills an absent optional UnionEnum with its first
  // value, which would turn "no edition filter" into edition=java.
  edition: t.Optional(editionSchema({ description: 'Only servers of this edition', error: 'edition must be one of java, bedrock' })),
  mode: t.Optional(t.String({ description: 'Only servers listing this game mode (one of the site\'s configured modes)' })),
})

export const BadgeQuery = t.Object({
  theme: t.Optional(t.UnionEnum(BADGE_THEMES, { default: 'light', description: 'light (for light pages) or dark', error: `theme must be one of ${BADGE_THEMES.join(', ')}` })),
  // A pattern, not an enum: Elysia would fill an absent enum with its first value, hiding site.language.
  lang: t.Optional(t.String({ pattern: `^(?:${LANGUAGES.join('|')})$`, description: `Language of the badge's text: ${LANGUAGES.join(', ')}; default site.language`, error: `lang must be one of ${LANGUAGES.join(', ')}` })),
})

const Point = t.Object({
  t: t.String({ description: 'Slice start, ISO 8601 UTC', examples: ['2026-11-22T10:00:00.000Z'] }),
  avg: t.Number({ description: 'Mean players over the slice\'s measurements (2 decimals)' }),
  max: t.Number({ description: 'Peak players in the slice' }),
})

export const HistoryResponse = t.Object({
  ok: t.Literal(true),
  range: t.UnionEnum(RANGE_NAMES, { examples: ['7d'] }),
  step: t.String({ description: 'Size of one slice', examples: ['1 h'] }),
  summary: t.Object({
    avg: t.Number({ description: 'Mean players over every measurement of the range' }),
    median: t.Number({ description: 'Median players; exact up to 30d, within 1 % beyond (see docs/owners.md, "How the median is computed")' }),
    min: t.Number(),
    peak: t.Number(),
    uptime: t.Number({ description: 'Share of measurements that succeeded, 0–1 (4 decimals)' }),
    points: Int({ description: 'Number of server measurements in the range' }),
  }),
  points: t.Array(Point, { description: 'One per slice that has a measurement, oldest first' }),
})

export const PublicServer = t.Object({
  id: t.String(),
  slug: t.String(),
  name: t.String(),
  description: t.String(),
  edition: editionSchema(),
  address: t.String({ description: '"host" or "host:port" as players type it', examples: ['play.example.com', 'play.example.com:25566'] }),
  version: t.String({ description: 'Version the owner lists, else the one the last ping read' }),
  modes: t.Array(t.String()),
  website: t.String(),
  verified: t.Boolean({ description: 'The owner proved they run the server: the listing\'s token was read in its MOTD' }),
  rank: t.Nullable(Int({ description: 'Position by votes this UTC month among listed servers' })),
  monthlyVotes: Int(),
  totalVotes: Int(),
  online: t.Boolean({ description: 'Whether the last ping succeeded' }),
  players: t.Object({ online: Int(), max: Int() }),
  motd: t.Nullable(t.String({ description: 'Plain-text MOTD of the last successful ping' })),
  latencyMs: t.Nullable(Int()),
  lastPingAt: t.Nullable(t.String({ description: 'Time of the last ping, UTC, ISO 8601 with milliseconds' })),
  uptime: t.Nullable(t.Number({ description: 'Share of successful pings over the last 24 h, 0–1; null before the first ping' })),
  voteUrl: t.String(),
  badgeUrl: t.String(),
  iconUrl: t.String({ description: 'The server icon (PNG, at most 64×64): the favicon of its last Java status answer that had a valid one, else the site\'s neutral default icon (Bedrock, never pinged, or its last answer carried none); a server that stops answering keeps its icon. `?v=` changes with the icon; such an address is cached for a year.' }),
  bannerUrl: t.Nullable(t.String({ description: 'The owner\'s 468×60 banner (PNG, GIF, JPEG or WebP), or null. `?v=` changes with the banner.' })),
  createdAt: Iso,
})
export type PublicServer = typeof PublicServer.static

export const PublicServerResponse = t.Object({ ok: t.Literal(true), server: PublicServer })
