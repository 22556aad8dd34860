// The server's banner: the one shown now, a file to choose with its preview (and its size, read
// by the browser, so a wrong one is seen before sending), Upload, and Remove. The site checks
// the image again from its bytes; its refusal lands under the field.
import { ApiError, del, putFile, serverPath } from './api.js'
import { announce, h } from './dom.js'
import { actionButton, onSubmit } from './forms.js'
import { t } from './i18n.js'
/** @import { ServerDetail } from '../types/api' */

const WIDTH = 468
const HEIGHT = 60
const TYPES = 'image/png,image/gif,image/jpeg,image/webp'

/**
 * @param {ServerDetail} server
 * @param {(slug: string) => Promise<void>} refresh draws the page again
 */
export function bannerSection(server, refresh) {
  const current = server.bannerUrl
    ? h('img', { class: 'banner', src: server.bannerUrl, width: String(WIDTH), height: String(HEIGHT), alt: t('dash.banner.current', { name: server.name }) })
    : h('p', { class: 'muted' }, t('dash.banner.none'))

  const input = h('input', { type: 'file', id: 'banner-file', name: 'banner', accept: TYPES, 'aria-describedby': 'banner-hint banner-note banner-error' })
  // A data: URL (allowed by the dashboard's policy), set directly: it never comes from the API.
  const preview = h('img', { class: 'banner banner-preview', width: String(WIDTH), height: String(HEIGHT), alt: t('dash.banner.preview'), hidden: true })
  const note = h('p', { class: 'hint', id: 'banner-note', 'aria-live': 'polite' })
  input.addEventListener('change', () => {
    const file = input.files?.[0]
    preview.hidden = true
    note.textContent = ''
    if (!file) return
    const reader = new FileReader()
    reader.addEventListener('load', () => {
      preview.src = String(reader.result)
      preview.hidden = false
    })
    reader.readAsDataURL(file)
  })
  preview.addEventListener('load', () => {
    const { naturalWidth: w, naturalHeight: hgt } = preview
    note.textContent = w === WIDTH && hgt === HEIGHT
      ? t('dash.banner.ready', { size: `${w}×${hgt}` })
      : t('dash.banner.wrongSize', { size: `${w}×${hgt}`, wanted: `${WIDTH}×${HEIGHT}` })
  })
  preview.addEventListener('error', () => {
    if (!preview.src) return
    preview.hidden = true
    note.textContent = t('dash.banner.notImage')
  })

  const form = onSubmit(h('form', { class: 'banner-form' },
    h('div', { class: 'field', dataset: { field: 'banner' } },
      h('label', { for: 'banner-file' }, t(server.bannerUrl ? 'dash.banner.replace' : 'dash.banner.upload')),
      input,
      h('p', { class: 'hint', id: 'banner-hint' }, t('dash.banner.hint', { size: `${WIDTH}×${HEIGHT}` })),
      preview, note,
      h('p', { class: 'field-error', id: 'banner-error', hidden: true })),
    h('button', { type: 'submit', class: 'button button-primary' }, t('dash.banner.submit'))), async () => {
    const file = input.files?.[0]
    if (!file) throw new ApiError(400, 'NO_FILE', 'no file chosen', 'banner')
    await putFile(serverPath(server.slug, '/banner'), file)
    announce(t('dash.banner.saved'))
    await refresh(server.slug)
  }, t('dash.banner.uploading'))

  const remove = server.bannerUrl
    ? actionButton(t('dash.banner.remove'), async () => {
      await del(serverPath(server.slug, '/banner'))
      announce(t('dash.banner.removed'))
      await refresh(server.slug)
    }, { confirmText: t('dash.banner.confirmRemove', { name: server.name }) })
    : null

  return h('section', { class: 'card' }, h('h2', null, t('dash.banner.title')),
    h('p', { class: 'muted' }, t('dash.banner.lead')),
    current, remove, form)
}
