// The owner dashboard: who is logged in (GET /api/v1/me — the session cookie is HttpOnly), the
// header navigation, and a small router on /dashboard/… paths (the site answers index.html for
// all of them). Each view renders into a fresh container and may return a function that stops
// what it started (the Deliveries tab's refresh).
import { isolateText } from '../translate.js'
import { ApiError, get, post, whenSessionLost } from './api.js'
import { announce, h, replace } from './dom.js'
import { errorSentence, t } from './i18n.js'
import { renderAdminServers } from './view-admin.js'
import { renderAdminAudit } from './view-admin-audit.js'
import { renderAdminSite } from './view-admin-site.js'
import { renderAdminUsers } from './view-admin-users.js'
import { renderLogin, renderSetup, renderSignup, signInAgain } from './view-auth.js'
import { renderReset } from './view-reset.js'
import { renderNewServer } from './view-new-server.js'
import { renderServer } from './view-server.js'
import { renderServers } from './view-servers.js'
/** @import { AuthStatus, User, UserAnswer } from '../types/api' */

/**
 * What every view is given: the visitor, the site, and the way to another page.
 * @typedef {object} Ctx
 * @property {User | null} user the account logged in; set on every page but the 'guest' ones
 * @property {AuthStatus | null} status
 * @property {string} siteName
 * @property {string[]} modes the site's game modes
 * @property {(path: string, options?: { replace?: boolean }) => void} navigate
 * @property {(title: string) => void} setTitle
 * @property {(user: User) => void} loggedIn
 * @property {(changes: Partial<User>) => void} userChanged the account logged in changed (its
 *   administrator right, by its own hand): the header follows, and an administrators' page is left
 */

/**
 * A view draws itself into `el`; it may return what stops what it started (a timer).
 * @typedef {(ctx: Ctx, el: HTMLElement, ...params: string[]) => void | Stop | Promise<void | Stop>} View
 * @typedef {() => void} Stop
 */

const body = document.body
// Both are in index.html.
const view = /** @type {HTMLElement} */ (document.getElementById('view'))
const nav = /** @type {HTMLElement} */ (document.getElementById('account-nav'))

/** @type {{ user: User | null, status: AuthStatus | null }} */
const state = { user: null, status: null }
/** @type {Stop | null} */
let stopView = null
let firstRender = true
let renders = 0
// The render() whose page is drawn (equal to `renders` unless a page is loading).
let shown = 0
// The dialog to log in again is open.
let signingInAgain = false

// [pattern, render, access]: 'guest' pages are for logged-out visitors, 'admin' for admins,
// 'any' for everyone (a reset link may be opened while another account is logged in).
/** @type {Array<[RegExp, View, 'owner' | 'admin' | 'guest' | 'any']>} */
const ROUTES = [
  [/^\/dashboard$/, renderServers, 'owner'],
  [/^\/dashboard\/servers\/new$/, renderNewServer, 'owner'],
  [/^\/dashboard\/servers\/([^/]+)$/, (ctx, el, slug) => renderServer(ctx, el, decodeURIComponent(slug), 'overview'), 'owner'],
  [/^\/dashboard\/servers\/([^/]+)\/api$/, (ctx, el, slug) => renderServer(ctx, el, decodeURIComponent(slug), 'api'), 'owner'],
  [/^\/dashboard\/servers\/([^/]+)\/deliveries$/, (ctx, el, slug) => renderServer(ctx, el, decodeURIComponent(slug), 'deliveries'), 'owner'],
  [/^\/dashboard\/admin\/users$/, renderAdminUsers, 'admin'],
  [/^\/dashboard\/admin\/servers$/, renderAdminServers, 'admin'],
  [/^\/dashboard\/admin\/site$/, renderAdminSite, 'admin'],
  [/^\/dashboard\/admin\/audit$/, renderAdminAudit, 'admin'],
  [/^\/dashboard\/reset$/, renderReset, 'any'],
  [/^\/dashboard\/login$/, renderLogin, 'guest'],
  [/^\/dashboard\/signup$/, renderSignup, 'guest'],
  [/^\/dashboard\/setup$/, renderSetup, 'guest'],
]

/**
 * @param {string} path
 * @param {{ replace?: boolean }} [options]
 */
export function navigate(path, { replace: replacing = false } = {}) {
  if (replacing) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  void render()
}

/** @type {Ctx} */
const ctx = {
  get user() { return state.user },
  get status() { return state.status },
  siteName: body.dataset.siteName ?? '',
  modes: (body.dataset.modes ?? '').split(',').filter(Boolean),
  navigate,
  setTitle(title) { document.title = `${title} · ${body.dataset.siteName}` },
  loggedIn(user) {
    state.user = user
    state.status = null
    const next = new URLSearchParams(location.search).get('next')
    navigate(next && next.startsWith('/dashboard') && !next.startsWith('//') ? next : '/dashboard', { replace: true })
  },
  userChanged(changes) {
    if (!state.user) return
    state.user = { ...state.user, ...changes }
    const leaving = !state.user.isAdmin && location.pathname.startsWith('/dashboard/admin/')
    navigate(leaving ? '/dashboard' : location.pathname + location.search, { replace: true })
  },
}

/**
 * @param {string} href
 * @param {string} text
 */
function navLink(href, text) {
  const here = location.pathname === href || (href !== '/dashboard' && location.pathname.startsWith(`${href}/`))
    || (href === '/dashboard' && location.pathname.startsWith('/dashboard/servers'))
  return h('a', { href, 'aria-current': here ? 'page' : null }, text)
}

function renderNav() {
  /** @type {HTMLElement[]} */
  const links = [h('a', { href: '/' }, t('dash.nav.ranking'))]
  if (state.user) {
    links.push(navLink('/dashboard', t('dash.nav.servers')))
    if (state.user.isAdmin) {
      links.push(navLink('/dashboard/admin/users', t('dash.nav.users')), navLink('/dashboard/admin/servers', t('dash.nav.allServers')),
        navLink('/dashboard/admin/site', t('dash.nav.site')), navLink('/dashboard/admin/audit', t('dash.nav.audit')))
    }
    links.push(h('span', { class: 'nav-account' },
      h('span', { class: 'muted nav-email', title: state.user.email }, isolateText(state.user.email)),
      h('button', { type: 'button', class: 'button-small', onClick: logOut }, t('dash.nav.logOut'))))
  } else if (!state.status?.setupNeeded) {
    links.push(navLink('/dashboard/login', t('dash.nav.logIn')))
    if (state.status?.registrationOpen) links.push(navLink('/dashboard/signup', t('dash.nav.signUp')))
  }
  replace(nav, links)
}

// The language switcher's links (index.html) bring the visitor back to the page open now.
function updateSwitcher() {
  for (const link of document.querySelectorAll('.lang-switch a[href^="/language?"]')) {
    if (!(link instanceof HTMLAnchorElement)) continue
    const url = new URL(link.href)
    url.searchParams.set('back', location.pathname + location.search)
    link.href = url.pathname + url.search
  }
}

async function logOut() {
  try {
    await post('/api/v1/auth/logout')
  } catch {
    // The cookie may be gone already; either way the visitor is logged out here.
  }
  state.user = null
  state.status = /** @type {AuthStatus | null} */ (await get('/api/v1/auth/status').catch(() => null))
  navigate('/dashboard/login', { replace: true })
  announce(t('dash.loggedOut'))
}

async function loadStatus() {
  state.status ??= /** @type {AuthStatus} */ (await get('/api/v1/auth/status'))
  return state.status
}

async function render() {
  stopView?.()
  stopView = null
  const generation = ++renders
  const path = location.pathname.replace(/\/+$/, '') || '/dashboard'
  const route = ROUTES.map(([pattern, fn, access]) => ({ params: path.match(pattern)?.slice(1), fn, access })).find((r) => r.params)
  const container = h('div', { class: 'view' })
  replace(view, container)

  if (route?.access !== 'guest' && route?.access !== 'any' && !state.user) {
    const status = await loadStatus()
    if (status.setupNeeded) return navigate('/dashboard/setup', { replace: true })
    const next = path === '/dashboard' ? '' : `?next=${encodeURIComponent(path)}`
    return navigate(`/dashboard/login${next}`, { replace: true })
  }
  if (route?.access === 'guest') {
    if (state.user) return navigate('/dashboard', { replace: true })
    const status = await loadStatus()
    if (status.setupNeeded && !path.endsWith('/setup')) return navigate('/dashboard/setup', { replace: true })
    if (!status.setupNeeded && path.endsWith('/setup')) return navigate('/dashboard/login', { replace: true })
  }
  renderNav()
  updateSwitcher()
  try {
    if (!route) {
      ctx.setTitle(t('dash.notFound.title'))
      replace(container, h('section', { class: 'card narrow' }, h('h1', { tabindex: '-1' }, t('dash.notFound.title')),
        h('p', null, t('dash.notFound.text')), h('p', null, h('a', { class: 'button', href: '/dashboard' }, t('dash.notFound.back')))))
    } else if (route.access === 'admin' && !state.user?.isAdmin) {
      ctx.setTitle(t('dash.adminOnly.title'))
      replace(container, h('section', { class: 'card narrow' }, h('h1', { tabindex: '-1' }, t('dash.adminOnly.title')),
        h('p', null, t('dash.adminOnly.text'))))
    } else {
      const stop = (await route.fn(ctx, container, ...route.params ?? [])) ?? null
      // Another page was opened while this one loaded: stop what this one started.
      if (generation !== renders) return stop?.()
      stopView = stop
    }
  } catch (error) {
    console.error(error)
    replace(container, h('div', { class: 'notice notice-error', role: 'alert' },
      h('p', null, t('dash.loadFailed', { reason: errorSentence(error) })),
      h('p', null, h('a', { href: location.pathname }, t('dash.tryAgain')))))
  }
  if (generation === renders) shown = generation
  // After a navigation, the focus moves to the new page's heading (screen readers read it); on
  // the first load the browser's own focus order is kept.
  if (!firstRender) container.querySelector('h1')?.focus()
  firstRender = false
}

// Same-dashboard links are followed without reloading the page.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null
  if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const url = new URL(link.href, location.href)
  if (url.origin !== location.origin || !url.pathname.startsWith('/dashboard') || link.target || link.hasAttribute('download')) return
  event.preventDefault()
  navigate(url.pathname + url.search)
})
window.addEventListener('popstate', () => void render())

// The API answered 401: the session expired, or ended elsewhere. While a page loads, its log-in
// page (which leads back to it); once a page is drawn, a dialog over it to log in again, so that
// nothing typed in the page is lost: the visitor then sends it again. Another account logging in
// there, or another page opened meanwhile (the browser's Back), gets the page drawn anew.
whenSessionLost(() => {
  if (!state.user || signingInAgain) return
  if (shown !== renders) return toLogin()
  signingInAgain = true
  const before = state.user
  const page = renders
  signInAgain({
    email: before.email,
    done(user) {
      signingInAgain = false
      state.user = user
      if (user.id !== before.id || renders !== page) return navigate(location.pathname + location.search, { replace: true })
      renderNav()
      announce(t('dash.session.back'))
    },
    leave() {
      signingInAgain = false
      toLogin()
    },
  })
})

function toLogin() {
  state.user = null
  navigate(`/dashboard/login?next=${encodeURIComponent(location.pathname)}`, { replace: true })
  announce(t('dash.sessionEnded'))
}

async function boot() {
  try {
    state.user = /** @type {UserAnswer} */ (await get('/api/v1/me')).user
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) {
      replace(view, h('div', { class: 'notice notice-error', role: 'alert' }, h('p', null, t('dash.startFailed', { reason: errorSentence(error) }))))
      return
    }
  }
  await render()
}

void boot()
