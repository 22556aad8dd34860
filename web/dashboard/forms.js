// Form fields with their label, hint and error slot, and the submit cycle: the API validates
// (forms are `novalidate`), and a 400 or 409 about one field (its `error.field`) is shown under
// that field, linked to it with aria-describedby and marked aria-invalid. A field is known by
// the API's name for it (data-field), so no message text is ever read to place an error.
import { ApiError } from './api.js'
import { announce, h, holdFocus, newId } from './dom.js'
import { errorSentence, t } from './i18n.js'

/**
 * @typedef {object} FieldSpec
 * @property {string} name the API's name of the field, as in its `error.field`
 * @property {string} label
 * @property {'text' | 'email' | 'password' | 'number' | 'url' | 'select' | 'textarea'} [type]
 * @property {string | number} [value]
 * @property {string | null} [hint]
 * @property {boolean} [optional]
 * @property {Array<{ value: string, label: string }>} [options] of a select
 * @property {number} [rows] of a textarea
 * @property {string} [autocomplete]
 * @property {string} [inputmode]
 * @property {string} [placeholder]
 * @property {string} [spellcheck]
 */

/** @param {FieldSpec} spec */
export function field(spec) {
  const id = newId(`field-${spec.name}`)
  const hintId = spec.hint ? `${id}-hint` : null
  const errorId = `${id}-error`
  const common = { id, name: spec.name, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') }
  let control
  if (spec.type === 'select') {
    control = h('select', common, (spec.options ?? []).map((o) => h('option', { value: o.value, selected: o.value === spec.value }, o.label)))
  } else if (spec.type === 'textarea') {
    control = h('textarea', { ...common, rows: spec.rows ?? 4, spellcheck: spec.spellcheck ?? null, placeholder: spec.placeholder })
    control.value = String(spec.value ?? '')
  } else {
    control = h('input', {
      ...common, type: spec.type ?? 'text', value: spec.value ?? '', autocomplete: spec.autocomplete ?? 'off',
      inputmode: spec.inputmode, placeholder: spec.placeholder, spellcheck: (spec.type ?? 'text') === 'text' ? 'false' : null,
    })
  }
  return h('div', { class: 'field', dataset: { field: spec.name } },
    h('label', { for: id }, spec.label, spec.optional ? h('span', { class: 'muted optional' }, ` ${t('dash.optional')}`) : null),
    control,
    spec.hint ? h('p', { class: 'hint', id: hintId }, spec.hint) : null,
    h('p', { class: 'field-error', id: errorId, hidden: true }))
}

// A group of checkboxes (game modes): one fieldset, one error slot.
/**
 * @param {{ name: string, legend: string, hint?: string, options: Array<{ value: string, label: string }>, values?: string[] }} group
 */
export function checkboxGroup({ name, legend, hint, options, values = [] }) {
  const errorId = newId(`${name}-error`)
  const hintId = hint ? `${errorId}-hint` : null
  return h('fieldset', { class: 'field checkbox-group', dataset: { field: name }, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') },
    h('legend', null, legend, h('span', { class: 'muted optional' }, ` ${t('dash.optional')}`)),
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    h('div', { class: 'checkboxes' }, options.map((o) => h('label', { class: 'checkbox' },
      h('input', { type: 'checkbox', name, value: o.value, checked: values.includes(o.value) }), ' ', o.label))),
    h('p', { class: 'field-error', id: errorId, hidden: true }))
}

// The form-level error (a message no field owns: rate limit, network, two fields at once).
// tabindex -1: showError() moves the focus to it (the button pressed was disabled meanwhile, which
// took the focus away); a div without it cannot take the focus, which then fell to the page.
export const formError = () => h('div', { class: 'notice notice-error form-error', role: 'alert', tabindex: '-1', hidden: true })

// The shown field of this form that the API named; none when it named no field, or one the form
// does not show (the message then goes to the top of the form).
/**
 * @param {HTMLFormElement} form
 * @param {string | null} name
 * @returns {HTMLElement | null}
 */
function fieldNamed(form, name) {
  if (!name) return null
  const holder = [...form.querySelectorAll('[data-field]')].find((f) => f instanceof HTMLElement && f.dataset.field === name)
  return holder instanceof HTMLElement && !holder.closest('[hidden]') ? holder : null
}

/** @param {HTMLFormElement} form */
export function clearErrors(form) {
  for (const slot of form.querySelectorAll('.field-error')) {
    if (!(slot instanceof HTMLElement)) continue
    slot.hidden = true
    slot.textContent = ''
  }
  for (const bad of form.querySelectorAll('[aria-invalid="true"]')) bad.removeAttribute('aria-invalid')
  const top = form.querySelector('.form-error')
  if (top instanceof HTMLElement) {
    top.hidden = true
    top.textContent = ''
  }
}

// Shows an error where it belongs, in the visitor's language, and moves the focus there.
/**
 * @param {HTMLFormElement} form
 * @param {unknown} error
 * @param {string} [scope] the form's name for errorSentence
 */
export function showError(form, error, scope) {
  const text = errorSentence(error, scope)
  const holder = error instanceof ApiError ? fieldNamed(form, error.field) : null
  const slot = holder?.querySelector('.field-error')
  if (holder && slot instanceof HTMLElement) {
    slot.textContent = text
    slot.hidden = false
    const control = holder.matches('fieldset') ? holder.querySelector('input') : holder.querySelector('input, select, textarea')
    ;(holder.matches('fieldset') ? holder : control)?.setAttribute('aria-invalid', 'true')
    if (control instanceof HTMLElement) control.focus()
    announce(text)
    return
  }
  const top = form.querySelector('.form-error')
  if (top instanceof HTMLElement) {
    top.textContent = text
    top.hidden = false
    top.focus()
  } else {
    announce(text)
  }
}

// Runs `action(form)` on submit with the button busy; an ApiError lands under its field.
/**
 * @param {HTMLFormElement} form
 * @param {(form: HTMLFormElement) => Promise<void>} action
 * @param {string} [busyLabel]
 * @param {string} [scope] the form's name for errorSentence ("login", "reset")
 */
export function onSubmit(form, action, busyLabel = t('dash.saving'), scope = undefined) {
  form.noValidate = true
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const pressed = event.submitter ?? form.querySelector('button[type="submit"]')
    const button = pressed instanceof HTMLButtonElement ? pressed : null
    const label = button?.textContent ?? ''
    const refocus = holdFocus(form)
    clearErrors(form)
    if (button) {
      button.disabled = true
      button.textContent = busyLabel
    }
    form.setAttribute('aria-busy', 'true')
    try {
      await action(form)
    } catch (error) {
      if (!(error instanceof ApiError)) console.error(error)
      showError(form, error, scope)
    } finally {
      form.removeAttribute('aria-busy')
      if (button && button.isConnected) {
        button.disabled = false
        button.textContent = label
      }
      refocus()
    }
  })
  return form
}

// The form's control of that name (null when there is none); a group of radio buttons is its
// RadioNodeList, whose value is the checked one's.
/**
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export const controlOf = (form, name) =>
  /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | RadioNodeList | null} */ (form.elements.namedItem(name))

export const valueOf = (/** @type {HTMLFormElement} */ form, /** @type {string} */ name) => controlOf(form, name)?.value.trim() ?? ''
export const checkedValues = (/** @type {HTMLFormElement} */ form, /** @type {string} */ name) =>
  [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => /** @type {HTMLInputElement} */ (i).value)

// A button that calls the API (revoke, rotate, delete…): asks first when `confirmText` is given,
// is disabled while it runs, and shows a failure next to itself.
/**
 * @param {string} label
 * @param {() => Promise<void>} action
 * @param {{ className?: string, confirmText?: string, ariaLabel?: string }} [options]
 */
export function actionButton(label, action, { className = 'button', confirmText, ariaLabel } = {}) {
  const error = h('span', { class: 'action-error', role: 'alert' })
  const button = h('button', { type: 'button', class: className, 'aria-label': ariaLabel }, label)
  button.addEventListener('click', async () => {
    if (confirmText && !window.confirm(confirmText)) return
    error.textContent = ''
    const refocus = holdFocus(button)
    button.disabled = true
    try {
      await action()
    } catch (e) {
      if (!(e instanceof ApiError)) console.error(e)
      error.textContent = errorSentence(e)
    } finally {
      button.disabled = false
      refocus()
    }
  })
  return h('span', { class: 'action' }, button, error)
}
