// Text to copy (a key, a config line, a snippet): shown in full, selectable, with a Copy button
// whose outcome is announced next to it. Without the clipboard API (plain http on a LAN
// address) the button selects the text instead, for Ctrl+C.
import { h } from './dom.js'
import { t } from './i18n.js'

/**
 * @param {() => string} getText
 * @param {{ label?: string, selectTarget?: () => Node | null }} [options]
 */
export function copyButton(getText, { label = t('common.copy'), selectTarget } = {}) {
  const status = h('span', { class: 'copy-status', role: 'status', 'aria-live': 'polite' })
  const button = h('button', {
    type: 'button', class: 'button-small',
    onClick: async () => {
      status.textContent = ''
      try {
        if (!navigator.clipboard) throw new Error('no clipboard')
        await navigator.clipboard.writeText(getText())
        status.textContent = t('dash.copied')
      } catch {
        const target = selectTarget?.()
        if (target) window.getSelection()?.selectAllChildren(target)
        status.textContent = t('dash.selected')
      }
      setTimeout(() => { status.textContent = '' }, 4000)
    },
  }, label)
  return { button, status }
}

// A one-line value (`block: true`: a multi-line code block) with its Copy button.
/**
 * @param {string} text
 * @param {{ label?: string, block?: boolean, describedBy?: string }} [options]
 */
export function copyField(text, { label = t('common.copy'), block = false, describedBy } = {}) {
  const code = block ? h('pre', { class: 'code-block' }, h('code', null, text)) : h('code', { class: 'copy-value' }, text)
  const { button, status } = copyButton(() => text, { label, selectTarget: () => code })
  if (describedBy) button.setAttribute('aria-describedby', describedBy)
  return h('div', { class: block ? 'copy-block' : 'copy-field' }, code, h('div', { class: 'copy-actions' }, button, status))
}
