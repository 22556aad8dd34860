import { Elysia, t } from 'elysia'
import { notFound } from '../http/errors.ts'
import { publicRateLimit } from '../http/public-limit.ts'
import type { Runtime } from '../runtime.ts'
import { createVoteChallenge } from './service.ts'
// @ts-expect-error TypeScript does not type text imports of .js files; Bun hands over the file as a string.
import widgetSource from '../../node_modules/altcha/dist/main/altcha.min.js' with { type: 'text' }
import widgetPackage from '../../node_modules/altcha/package.json'

// The altcha widget (MIT, © Daniel Regeci / BAU Software) is embedded from node_modules at build
// time and served by the site itself: the vote page makes no third-party request.
const widget = `/*! altcha widget ${widgetPackage.version} | MIT License | https://github.com/altcha-org/altcha */\n${widgetSource as string}`
export const WIDGET_PATH = `/vendor/altcha-${widgetPackage.version}.min.js`

const ChallengeSchema = t.Object({
  parameters: t.Object({
    algorithm: t.String(), nonce: t.String(), salt: t.String(), cost: t.Number(), keyLength: t.Number(),
    keyPrefix: t.String(), keySignature: t.Optional(t.String()), expiresAt: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  signature: t.Optional(t.String()),
})

export const captchaRoutes = (rt: Runtime) =>
  new Elysia({ name: 'captcha.routes' })
    .use(publicRateLimit(rt))
    .get(WIDGET_PATH, () => new Response(widget, {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' },
    }), {
      detail: { summary: 'The captcha widget script', description: 'The altcha web component that solves vote challenges in the browser, served by the site itself. The file name carries its version, so it is cached for a year.', tags: ['Voting'] },
    })
    .get('/api/v1/vote-challenge', async ({ set }) => {
      if (rt.config.votes.captcha !== 'pow') throw notFound('the captcha is off on this site (votes.captcha = "off")')
      set.headers['cache-control'] = 'no-store'
      return createVoteChallenge(rt)
    }, {
      publicLimited: true,
      response: ChallengeSchema,
      detail: {
        summary: 'A proof-of-work challenge for the vote form',
        description: 'An ALTCHA v2 challenge (PBKDF2/SHA-256), HMAC-signed by the site and valid for votes.captcha_ttl. The vote form\'s widget fetches it, solves it, and sends the answer in the `altcha` field of POST /serveur/{slug}/voter. Each answer is accepted once. 404 when votes.captcha = "off".',
        tags: ['Voting'],
      },
    })
