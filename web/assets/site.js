// votelist public pages: small progressive enhancements. Every page works without this file.
// Its words come from the page's catalog (web/assets/translate.js).
import { pageTranslator } from './translate.js'

const tr = pageTranslator('local')

// "Copy" buttons: <button data-copy="ID" hidden> copies the text of element #ID. The button
// says "Copied!" for a moment, and the result is announced in [data-copy-status="ID"] or, on a
// page of many addresses, in the one #copy-status region. The button stays hidden where the
// clipboard API is missing (the address is selectable text anyway).
function setUpCopyButtons() {
  if (!navigator.clipboard) return
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button[data-copy]'))) {
    const id = button.dataset.copy ?? ''
    const source = document.getElementById(id)
    const status = document.querySelector(`[data-copy-status="${CSS.escape(id)}"]`) ?? document.getElementById('copy-status')
    // The visible word is the button's first text; the rest is for screen readers.
    const label = button.firstChild
    if (!source || !label) continue
    const word = label.textContent
    button.hidden = false
    button.addEventListener('click', async () => {
      const address = (source.textContent ?? '').trim()
      try {
        await navigator.clipboard.writeText(address)
        label.textContent = tr.t('script.copied')
        if (status) status.textContent = tr.t('script.copiedAddress', { address })
      } catch {
        if (status) status.textContent = tr.t('script.copyFailed')
      }
      setTimeout(() => {
        label.textContent = word
        if (status) status.textContent = ''
      }, 3000)
    })
  }
}

// Dual-stack capture: before the vote is sent, ask the site's IPv4-only and IPv6-only hosts for
// a signed token of the address each one sees, so the vote records both of the player's
// addresses. A host the player cannot reach (no IPv6, say) simply gives no token; nor does one
// that answered over the other family (an "IPv6-only" name that also has an A record): the vote
// would refuse that token, so it is left out and the vote goes on without it.
/**
 * @param {string | undefined} base
 * @param {4 | 6} family
 */
async function fetchToken(base, family) {
  if (!base) return ''
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), 4000)
  try {
    const res = await fetch(`${base}/api/v1/vote-token`, { signal: controller.signal, credentials: 'omit', cache: 'no-store' })
    if (!res.ok) return ''
    const body = /** @type {Partial<import('../types/api').VoteToken>} */ (await res.json())
    if (body.family !== family) {
      console.warn(`votelist: ${base} answered over IPv${body.family}, not IPv${family}: its token is left out (site.ipv${family}_url must be reachable over IPv${family} only)`)
      return ''
    }
    return typeof body.token === 'string' ? body.token : ''
  } catch {
    return ''
  } finally {
    clearTimeout(timer)
  }
}

// The vote form's hidden inputs for the tokens.
/**
 * @param {HTMLFormElement} form
 * @param {'ipv4Token' | 'ipv6Token'} name
 */
const tokenInput = (form, name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name))

function setUpDualStack() {
  const form = document.querySelector('form[data-vote-form][data-ipv4-url], form[data-vote-form][data-ipv6-url]')
  if (!(form instanceof HTMLFormElement)) return
  let ready = false
  // A second Vote (a double click) while the tokens are fetched is the same vote: sending it too
  // would record the first and answer the player "you already voted" (or a spent captcha).
  let fetching = false
  form.addEventListener('submit', async (event) => {
    if (ready) return
    event.preventDefault()
    if (fetching) return
    fetching = true
    const submitter = event.submitter
    const [v4, v6] = await Promise.all([fetchToken(form.dataset.ipv4Url, 4), fetchToken(form.dataset.ipv6Url, 6)])
    tokenInput(form, 'ipv4Token').value = v4
    tokenInput(form, 'ipv6Token').value = v6
    ready = true
    if (form.requestSubmit) form.requestSubmit(submitter)
    else form.submit()
  })
}

// Times are written in UTC by the site; [data-local-time="ISO"] beside one gets the same moment
// in the visitor's own time zone, in the same format.
function showLocalTimes() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-local-time]'))) {
    const at = new Date(el.dataset.localTime ?? '')
    if (!Number.isNaN(at.getTime())) el.textContent = ` ${tr.t('script.localTime', { time: tr.dateTime(at) })}`
  }
}

// The vote form's captcha solves itself when the page opens. Vote pressed before it is done
// waits for it, says so, and is sent the moment it is: one click whatever the timing. The click
// itself is held (not the submission): until it is solved, the widget's own required box would
// stop the browser from submitting at all.
function setUpCaptchaWait() {
  const form = document.querySelector('form[data-vote-form]')
  const widget = form?.querySelector('altcha-widget')
  const button = form?.querySelector('button[type="submit"]')
  if (!(form instanceof HTMLFormElement) || !widget || !(button instanceof HTMLButtonElement)) return
  const status = form.querySelector('[data-vote-status]')
  const pseudo = form.querySelector('#pseudo')
  let verified = false
  let waiting = false
  widget.addEventListener('statechange', (event) => {
    const state = /** @type {CustomEvent<{ state: string }>} */ (event).detail?.state
    verified = state === 'verified'
    if (state === 'error' && status) status.textContent = tr.t('script.captchaFailed')
    if (verified && waiting) {
      waiting = false
      if (status) status.textContent = ''
      form.requestSubmit(button)
    }
  })
  button.addEventListener('click', (event) => {
    if (verified) return
    event.preventDefault()
    // The name is checked now, so that a typo is said at once rather than after the wait.
    if (pseudo instanceof HTMLInputElement && !pseudo.reportValidity()) return
    waiting = true
    if (status) status.textContent = tr.t('script.captchaWait')
  })
}

// The vote form's name is checked by the browser before it is sent (required, pattern), whose
// own message is in the browser's language, not the page's, and as vague as "Please match the
// requested format". The page's words are said instead (the input's data-missing, data-invalid:
// the rule the name breaks), until the name is changed.
function setUpNameMessages() {
  const input = document.querySelector('form[data-vote-form] input[name="pseudo"]')
  if (!(input instanceof HTMLInputElement)) return
  input.addEventListener('input', () => input.setCustomValidity(''))
  input.addEventListener('invalid', () => {
    if (input.validity.customError) return
    input.setCustomValidity((input.validity.valueMissing ? input.dataset.missing : input.dataset.invalid) ?? '')
  })
}

// The ranking's filter form shows the filters of the list it sits on (the page writes them as the
// fields' defaults). Back and Forward would show instead what was chosen there last, the filters
// of the next list: the browser restores the fields (after DOMContentLoaded, before 'pageshow')
// or the whole page (then 'pageshow' says persisted).
function keepFiltersOfTheList() {
  const form = document.querySelector('form.filters')
  if (!(form instanceof HTMLFormElement)) return
  window.addEventListener('pageshow', (event) => {
    const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType('navigation')[0])
    if (event.persisted || navigation?.type === 'back_forward') form.reset()
  })
}

setUpCopyButtons()
keepFiltersOfTheList()
showLocalTimes()
setUpNameMessages()
setUpCaptchaWait()
setUpDualStack()
