import { Elysia } from 'elysia'
import { notFound } from '../http/errors.ts'
import { errorAnswer } from '../http/schema.ts'
import { LANGUAGES } from '../i18n/catalogs.ts'
import { translatorFor } from '../i18n/translate.ts'
import { escapeHtml, raw, render, type Renderable } from '../pages/html.ts'
import { publicRateLimit, type PublicLimitDeps } from '../http/public-limit.ts'
import { vendorFile } from '../http/vendor-file.ts'
import { ChallengeSchema } from './schema.ts'
import { createVoteChallenge, type CaptchaDeps } from './service.ts'
import widgetPackage from '../../node_modules/altcha/package.json'

// The altcha widget (MIT, © Daniel Regeci / BAU Software) is embedded from node_modules at build
// time and served by the site itself: the vote page makes no third-party request. It is the
// package's "external" build, which fits the pages' Content-Security-Policy: its stylesheet and
// its proof-of-work worker are files of the site (the default build injects a <style> element
// and starts its workers from blob: URLs). The file names carry the version: cached for a year.
const version = widgetPackage.version
const banner = `/*! altcha widget ${version} | MIT License | https://github.com/altcha-org/altcha */\n`
export const WIDGET_PATH = `/vendor/altcha-${version}.min.js`
export const WIDGET_CSS_PATH = `/vendor/altcha-${version}.css`
const WORKER_PATH = `/vendor/altcha-${version}-pbkdf2.js`
// The widget's words in each language of the site, from the catalogs (altcha.*): the vote page
// names its language (language="fr") and the widget takes these. Its own English fills what a
// catalog does not say (the audio and image challenges, which the site does not use).
function widgetStrings(): Record<string, Record<string, string>> {
  return Object.fromEntries(LANGUAGES.map((lang) => {
    const tr = translatorFor(lang)
    const link = `<a href="https://altcha.org/" tabindex="-1" target="_blank" aria-label="${escapeHtml(tr.t('altcha.ariaLinkLabel'))}">ALTCHA</a>`
    return [lang, {
      ariaLinkLabel: tr.t('altcha.ariaLinkLabel'), error: tr.t('altcha.error'), expired: tr.t('altcha.expired'),
      footer: tr.parts('altcha.footer', { link: raw(link) }).map((p) => render(p as Renderable)).join(''),
      label: tr.t('altcha.label'), loading: tr.t('altcha.loading'), reload: tr.t('altcha.reload'), verify: tr.t('altcha.verify'),
      verificationRequired: tr.t('altcha.verificationRequired'), verified: tr.t('altcha.verified'),
      verifying: tr.t('altcha.verifying'), waitAlert: tr.t('altcha.waitAlert'),
    }]
  }))
}

// The files are made at the first request for each, not at start: the widget's text is loaded
// then (src/captcha/widget-files.ts), and its strings take every language's translator.
const file = (make: (files: typeof import('./widget-files.ts')) => string, type: string) =>
  vendorFile(() => import('./widget-files.ts').then(make), type)
// The external build solves nothing until each algorithm has a worker: the site's challenges are
// PBKDF2/SHA-256 (src/captcha/service.ts).
const widgetScript = file((f) => `${banner}${f.source}
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Worker(${JSON.stringify(WORKER_PATH)}));
for (const [lang, strings] of Object.entries(${JSON.stringify(widgetStrings())})) globalThis.$altcha.i18n.set(lang, { ...globalThis.$altcha.i18n.get('en'), ...strings });
`, 'text/javascript')

export const captchaRoutes = (rt: CaptchaDeps & PublicLimitDeps) =>
  new Elysia({ name: 'captcha.routes' })
    .use(publicRateLimit(rt))
    .get(WIDGET_PATH, widgetScript, {
      detail: { summary: 'The captcha widget script', description: 'The altcha web component that solves vote challenges in the browser, served by the site itself with its stylesheet and proof-of-work worker. The file name carries its version, so it is cached for a year.', tags: ['Voting'] },
    })
    .get(WIDGET_CSS_PATH, file((f) => `${banner}${f.css}`, 'text/css'), { detail: { hide: true } })
    .get(WORKER_PATH, file((f) => `${banner}${f.worker}`, 'text/javascript'), { detail: { hide: true } })
    .get('/api/v1/vote-challenge', async ({ set }) => {
      if (rt.config.votes.captcha !== 'pow') throw notFound('the captcha is off on this site (votes.captcha = "off")')
      set.headers['cache-control'] = 'no-store'
      return createVoteChallenge(rt)
    }, {
      publicLimited: true,
      response: { 200: ChallengeSchema, 404: errorAnswer('NOT_FOUND: the captcha is off on this site (votes.captcha = "off").'), 429: errorAnswer('RATE_LIMITED: over limits.public_per_minute (120 a minute per client address by default); Retry-After says when to try again.') },
      detail: {
        summary: 'A proof-of-work challenge for the vote form',
        description: 'An ALTCHA v2 challenge (PBKDF2/SHA-256), HMAC-signed by the site and valid for votes.captcha_ttl. The vote form\'s widget fetches it, solves it, and sends the answer in the `altcha` field of POST /serveur/{slug}/voter. Each answer is accepted once. 404 when votes.captcha = "off".',
        tags: ['Voting'],
      },
    })
