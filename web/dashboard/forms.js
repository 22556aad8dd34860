// Form fields with their label, hint and error slot, and the submit cycle: the API validates
// (forms are `novalidate`), and its 400 message, which names the field, is shown under that
// field, linked to it with aria-describedby and marked aria-invalid.
import { ApiError } from './api.js'
import { announce, h, newId } from './dom.js'

// spec: { name, label, type ('text' | 'email' | 'password' | 'number' | 'url' | 'select' | 'textarea'),
//         value, hint, optional, options: [{ value, label }], rows, autocomplete, inputmode, placeholder }
export function field(spec) {
  const id = newId(`field-${spec.name}`)
  const hintId = spec.hint ? `${id}-hint` : null
  const errorId = `${id}-error`
  const common = { id, name: spec.name, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') }
  let control
  if (spec.type === 'select') {
    control = h('select', common, spec.options.map((o) => h('option', { value: o.value, selected: o.value === spec.value }, o.label)))
  } else if (spec.type === 'textarea') {
    control = h('textarea', { ...common, rows: spec.rows ?? 4, spellcheck: spec.spellcheck ?? null, placeholder: spec.placeholder })
    control.value = spec.value ?? ''
  } else {
    control = h('input', {
      ...common, type: spec.type ?? 'text', value: spec.value ?? '', autocomplete: spec.autocomplete ?? 'off',
      inputmode: spec.inputmode, placeholder: spec.placeholder, spellcheck: (spec.type ?? 'text') === 'text' ? 'false' : null,
    })
  }
  return h('div', { class: 'field', dataset: { field: spec.name, aliases: spec.aliases?.join('|') } },
    h('label', { for: id }, spec.label, spec.optional ? h('span', { class: 'muted optional' }, ' (optional)') : null),
    control,
    spec.hint ? h('p', { class: 'hint', id: hintId }, spec.hint) : null,
    h('p', { class: 'field-error', id: errorId, hidden: true }))
}

// A group of checkboxes (game modes): one fieldset, one error slot.
export function checkboxGroup({ name, legend, hint, options, values = [] }) {
  const errorId = newId(`${name}-error`)
  const hintId = hint ? `${errorId}-hint` : null
  return h('fieldset', { class: 'field checkbox-group', dataset: { field: name }, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') },
    h('legend', null, legend, h('span', { class: 'muted optional' }, ' (optional)')),
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    h('div', { class: 'checkboxes' }, options.map((o) => h('label', { class: 'checkbox' },
      h('input', { type: 'checkbox', name, value: o.value, checked: values.includes(o.value) }), ' ', o.label))),
    h('p', { class: 'field-error', id: errorId, hidden: true }))
}

// The form-level error (a message no field owns: rate limit, network, a conflict).
export const formError = () => h('div', { class: 'notice notice-error form-error', role: 'alert', hidden: true })

// The field a message is about: the one it starts with ("port must be…", "url refused: …"), else
// the first one it names ("the slug "x" is taken"), by name or by an alias ("e-mail address").
function fieldNamed(form, message) {
  const fields = [...form.querySelectorAll('[data-field]')]
  const first = fields.find((f) => message.startsWith(`${f.dataset.field} `) || message.startsWith(`${f.dataset.field}:`))
  return first ?? fields.find((f) => new RegExp(`\\b${f.dataset.field}\\b`).test(message)
    || (f.dataset.aliases ?? '').split('|').some((alias) => alias && message.includes(alias))) ?? null
}

export function clearErrors(form) {
  for (const slot of form.querySelectorAll('.field-error')) {
    slot.hidden = true
    slot.textContent = ''
  }
  for (const bad of form.querySelectorAll('[aria-invalid="true"]')) bad.removeAttribute('aria-invalid')
  const top = form.querySelector('.form-error')
  if (top) {
    top.hidden = true
    top.textContent = ''
  }
}

// An API failure as a sentence (the API's own message, which names what is wrong).
export const errorSentence = (error) => {
  const message = error instanceof ApiError ? error.message : 'something went wrong; please try again'
  return message.charAt(0).toUpperCase() + message.slice(1)
}

// Shows an error where it belongs and moves the focus there.
export function showError(form, error) {
  const text = errorSentence(error)
  // 400 names the field at fault; 409 names the taken one (slug, e-mail).
  const holder = error instanceof ApiError && (error.status === 400 || error.status === 409) ? fieldNamed(form, error.message) : null
  if (holder) {
    const slot = holder.querySelector('.field-error')
    slot.textContent = text
    slot.hidden = false
    const control = holder.matches('fieldset') ? holder.querySelector('input') : holder.querySelector('input, select, textarea')
    ;(holder.matches('fieldset') ? holder : control).setAttribute('aria-invalid', 'true')
    control?.focus()
    announce(text)
    return
  }
  const top = form.querySelector('.form-error')
  if (top) {
    top.textContent = text
    top.hidden = false
    top.focus?.()
  } else {
    announce(text)
  }
}

// Runs `action(form)` on submit with the button busy; an ApiError lands under its field.
export function onSubmit(form, action, busyLabel = 'Saving…') {
  form.noValidate = true
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const button = event.submitter ?? form.querySelector('button[type="submit"]')
    const label = button?.textContent
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
      showError(form, error)
    } finally {
      form.removeAttribute('aria-busy')
      if (button && button.isConnected) {
        button.disabled = false
        button.textContent = label
      }
    }
  })
  return form
}

export const valueOf = (form, name) => form.elements.namedItem(name)?.value.trim() ?? ''
export const checkedValues = (form, name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value)

// A button that calls the API (revoke, rotate, delete…): asks first when `confirmText` is given,
// is disabled while it runs, and shows a failure next to itself.
export function actionButton(label, action, { className = 'button', confirmText, ariaLabel } = {}) {
  const error = h('span', { class: 'action-error', role: 'alert' })
  const button = h('button', { type: 'button', class: className, 'aria-label': ariaLabel }, label)
  button.addEventListener('click', async () => {
    if (confirmText && !window.confirm(confirmText)) return
    error.textContent = ''
    button.disabled = true
    try {
      await action()
    } catch (e) {
      if (!(e instanceof ApiError)) console.error(e)
      error.textContent = errorSentence(e)
    } finally {
      button.disabled = false
    }
  })
  return h('span', { class: 'action' }, button, error)
}
