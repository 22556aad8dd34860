// votelist public pages: small progressive enhancements. Every page works without this file.
'use strict'

// "Copy address" buttons: <button data-copy="ID" hidden> copies the text of element #ID and
// reports it in [data-copy-status="ID"]. The button stays hidden where the clipboard API is
// missing (the address is selectable text anyway).
function setUpCopyButtons() {
  if (!navigator.clipboard) return
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('button[data-copy]'))) {
    const id = button.dataset.copy ?? ''
    const source = document.getElementById(id)
    const status = document.querySelector(`[data-copy-status="${CSS.escape(id)}"]`)
    if (!source) continue
    button.hidden = false
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(source.textContent.trim())
        if (status) status.textContent = 'Copied!'
      } catch {
        if (status) status.textContent = 'Copy failed: select the address instead.'
      }
      if (status) setTimeout(() => { status.textContent = '' }, 3000)
    })
  }
}

// Dual-stack capture: before the vote is sent, ask the site's IPv4-only and IPv6-only hosts for
// a signed token of the address each one sees, so the vote records both of the player's
// addresses. A host the player cannot reach (no IPv6, say) simply gives no token.
/** @param {string | undefined} base */
async function fetchToken(base) {
  if (!base) return ''
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), 4000)
  try {
    const res = await fetch(`${base}/api/v1/vote-token`, { signal: controller.signal, credentials: 'omit', cache: 'no-store' })
    if (!res.ok) return ''
    const body = /** @type {Partial<import('../types/api').VoteToken>} */ (await res.json())
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
  form.addEventListener('submit', async (event) => {
    if (ready) return
    event.preventDefault()
    const submitter = event.submitter
    const [v4, v6] = await Promise.all([fetchToken(form.dataset.ipv4Url), fetchToken(form.dataset.ipv6Url)])
    tokenInput(form, 'ipv4Token').value = v4
    tokenInput(form, 'ipv6Token').value = v6
    ready = true
    if (form.requestSubmit) form.requestSubmit(submitter)
    else form.submit()
  })
}

setUpCopyButtons()
setUpDualStack()
