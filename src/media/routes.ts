import { Elysia, t } from 'elysia'
import { Invalid, Ok, ServerErrors } from '../accounts/schema.ts'
import { ownerAuth } from '../accounts/guard.ts'
import type { SessionDeps } from '../accounts/session.ts'
import type { AuditRepo } from '../audit/repo.ts'
import { auditOnServer } from '../audit/service.ts'
import type { Clock } from '../clock.ts'
import { use, type StoreWrites } from '../db/store.ts'
import { atFirstUse } from '../first-use.ts'
import { bodyLimitOption } from '../http/body-limit.ts'
import { notFound } from '../http/errors.ts'
import type { ServersRepo } from '../servers/repo.ts'
import { SlugParams } from '../servers/schema.ts'
import { listedServer, ownedServer } from '../servers/service.ts'
import { bannerPath, imageVersion } from '../servers/view.ts'
import { BANNER_BODY_CAP, BANNER_HEIGHT, BANNER_TYPES, BANNER_WIDTH, checkBanner } from './banner.ts'
import { imageHash } from './icon.ts'
import { errorResponse, Int } from '../http/schema.ts'

export type MediaRoutesDeps = SessionDeps & {
  clock: Clock
  store: { servers: ServersRepo } & StoreWrites<{ servers: ServersRepo; audit: AuditRepo }>
}

// An address with the image's own `v` never shows another image: cached for a year. Without it
// (or with an old one), five minutes, then revalidated by ETag.
const FOREVER = 'public, max-age=31536000, immutable'
const A_WHILE = 'public, max-age=300'

// `If-None-Match` holds one of these ETags (weak or strong, as browsers send them back), or `*`.
function matches(header: string | null, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const v = tag.trim()
    return v === '*' || v.replace(/^W\//, '') === etag
  })
}

function imageAnswer(request: Request, bytes: Uint8Array, type: string, hash: string): Response {
  const etag = `"${hash.slice(0, 32)}"`
  const version = new URL(request.url).searchParams.get('v')
  const headers = { etag, 'cache-control': version === imageVersion(hash) ? FOREVER : A_WHILE }
  if (matches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { ...headers, 'content-type': type } })
}

const tags = ['Public statistics']
const ownerTags = ['Owner: servers']

// OpenAPI for answers and bodies that are images, which no `t` schema describes.
const binary = { schema: { type: 'string' as const, format: 'binary' } }
const imageResponses = (types: readonly string[], what: string, missing: string) => ({
  200: {
    description: what,
    headers: {
      ETag: { description: 'Changes with the image', schema: { type: 'string' as const } },
      'Cache-Control': { description: 'A year (immutable) at the address with the current `?v=`, else 5 minutes', schema: { type: 'string' as const } },
    },
    content: Object.fromEntries(types.map((type) => [type, binary])),
  },
  304: { description: 'If-None-Match holds the current ETag' },
  404: errorResponse(`NOT_FOUND: ${missing}`),
})
const BannerAnswer = t.Object({
  ok: t.Literal(true),
  banner: t.Object({ url: t.String(), type: t.String(), width: Int(), height: Int(), size: Int({ description: 'bytes' }) }),
})

// Server icons (kept by the ping rounds) and banners (uploaded by owners), as images. They are
// not counted against the public API's rate limit: a ranking page shows 50 of each, and the
// browser caches them like the site's other static files.
// The default icon is read when a server without an icon is first asked for, not at start.
export function mediaRoutes(deps: MediaRoutesDeps, defaultIconFile: string) {
  const defaultIcon = atFirstUse(async () => {
    const png = await Bun.file(defaultIconFile).bytes()
    return { png, hash: imageHash(png) }
  })
  return new Elysia({ name: 'media.routes' })
    .use(ownerAuth(deps))
    .use(bodyLimitOption)
    .get('/api/v1/servers/:slug/icon.png', async ({ params, request }) => {
      const server = await listedServer(deps.store.servers, params.slug)
      const icon = await deps.store.servers.icon(server.num)
      const shown = icon ?? await defaultIcon()
      return imageAnswer(request, shown.png, 'image/png', shown.hash)
    }, {
      params: SlugParams,
      detail: {
        summary: 'Server icon', tags, operationId: 'getApiV1ServersBySlugIcon',
        responses: imageResponses(['image/png'], 'The icon, at most 64×64 pixels', 'unknown or hidden server'),
        description: 'image/png, at most 64×64: the favicon of the server\'s last Java status answer that carried a valid one (a PNG of at most 64×64 pixels and 32 KiB, read from its IHDR header), else the site\'s neutral default icon (Bedrock servers, servers that never answered). An answer without a valid favicon removes the icon kept; a server that does not answer keeps it. '
          + 'With an ETag (If-None-Match: 304). `?v=` as in the public record\'s iconUrl: cached for a year; otherwise for 5 minutes. Unknown or hidden server: 404 NOT_FOUND. Not counted against the public rate limit.',
      },
    })
    .get('/api/v1/servers/:slug/banner', async ({ params, request }) => {
      const server = await listedServer(deps.store.servers, params.slug)
      const banner = await deps.store.servers.banner(server.num)
      if (!banner) throw notFound(`the server "${server.slug}" has no banner`)
      return imageAnswer(request, banner.bytes, banner.type, banner.hash)
    }, {
      params: SlugParams,
      detail: {
        summary: 'Server banner', tags,
        responses: imageResponses(BANNER_TYPES, `The banner, ${BANNER_WIDTH}×${BANNER_HEIGHT} pixels, in the type read from its bytes`, 'no banner, unknown or hidden server'),
        description: `The owner's ${BANNER_WIDTH}×${BANNER_HEIGHT} banner, with the type read from its bytes (image/png, image/gif, image/jpeg or image/webp). With an ETag (If-None-Match: 304). \`?v=\` as in the public record's bannerUrl: cached for a year; otherwise for 5 minutes. No banner, unknown or hidden server: 404 NOT_FOUND. Not counted against the public rate limit.`,
      },
    })
    .put('/api/v1/me/servers/:slug/banner', async ({ user, params, body, request }) => {
      const server = await ownedServer(deps.store.servers, user, params.slug)
      const banner = checkBanner(new Uint8Array(body as ArrayBuffer), request.headers.get('content-type'))
      // An administrator's banner on another account's server is an edit of it, audited as one.
      await deps.store.write(function* (tx) {
        const now = deps.clock.now()
        yield* use(tx.servers.setBanner(server.num, banner, now))
        yield* auditOnServer(tx, now, { actor: user, server }, 'server.update', { fields: 'banner' })
      })
      return {
        ok: true as const,
        banner: { url: deps.siteUrl.base() + bannerPath(server.slug, banner.hash)!, type: banner.type, width: banner.width, height: banner.height, size: banner.bytes.length },
      }
    }, {
      owner: true, params: SlugParams, parse: 'arrayBuffer', maxBodyBytes: BANNER_BODY_CAP,
      response: { 200: BannerAnswer, ...Invalid('banner: not a PNG, GIF, JPEG or WebP, not 468×60, over 1 MiB, or sent under another Content-Type'), ...ServerErrors() },
      detail: {
        summary: 'Upload the banner of one of my servers', tags: ownerTags,
        requestBody: { required: true, description: 'The image file itself', content: Object.fromEntries([...BANNER_TYPES, 'application/octet-stream'].map((type) => [type, binary])) },
        description: `The image itself as the raw body, with its Content-Type (image/png, image/gif, image/jpeg, image/webp; application/octet-stream is accepted too). It must be ${BANNER_WIDTH}×${BANNER_HEIGHT} pixels (an animated GIF or WebP too) and at most 1 MiB. The type and the size are read from the image's own bytes (PNG IHDR, GIF logical screen grown to hold every frame, as browsers show it, JPEG SOF marker, WebP VP8/VP8L/VP8X header), never from the header: anything else is 400 INVALID_PARAMETER with \`error.field\` "banner" and a message saying what is wrong (type, size or dimensions). A body over 4 MiB is 413 PAYLOAD_TOO_LARGE unread. Replaces the banner there was.`,
      },
    })
    .delete('/api/v1/me/servers/:slug/banner', async ({ user, params }) => {
      const server = await ownedServer(deps.store.servers, user, params.slug)
      await deps.store.write(function* (tx) {
        if (yield* use(tx.servers.removeBanner(server.num))) yield* auditOnServer(tx, deps.clock.now(), { actor: user, server }, 'server.update', { fields: 'banner' })
      })
      return { ok: true as const }
    }, {
      owner: true, params: SlugParams,
      response: { 200: Ok, ...ServerErrors() },
      detail: { summary: 'Remove the banner of one of my servers', tags: ownerTags, description: 'The server shows no banner any more. 200 whether or not it had one.' },
    })
}
