// The server's banner: the one shown now, a file to choose with its preview (and its size, read
// by the browser, so a wrong one is seen before sending), Upload, and Remove. The site checks
// the image again from its bytes; its refusal lands under the field.
import { ApiError, del, putFile, serverPath } from './api.js'
import { announce, h } from './dom.js'
import { actionButton, onSubmit } from './forms.js'
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
    ? h('img', { class: 'banner', src: server.bannerUrl, width: String(WIDTH), height: String(HEIGHT), alt: `Current banner of ${server.name}` })
    : h('p', { class: 'muted' }, 'No banner: the ranking and the server page show none.')

  const input = h('input', { type: 'file', id: 'banner-file', name: 'banner', accept: TYPES, 'aria-describedby': 'banner-hint banner-note banner-error' })
  // A data: URL (allowed by the dashboard's policy), set directly: it never comes from the API.
  const preview = h('img', { class: 'banner banner-preview', width: String(WIDTH), height: String(HEIGHT), alt: 'Preview of the chosen image', hidden: true })
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
      ? `${w}×${hgt}: ready to upload.`
      : `This image is ${w}×${hgt}; a banner must be ${WIDTH}×${HEIGHT}.`
  })
  preview.addEventListener('error', () => {
    if (!preview.src) return
    preview.hidden = true
    note.textContent = 'This file is not an image the browser can show.'
  })

  const form = onSubmit(h('form', { class: 'banner-form' },
    h('div', { class: 'field', dataset: { field: 'banner' } },
      h('label', { for: 'banner-file' }, server.bannerUrl ? 'Replace the banner' : 'Upload a banner'),
      input,
      h('p', { class: 'hint', id: 'banner-hint' }, `${WIDTH}×${HEIGHT} pixels, PNG, GIF (animated too), JPEG or WebP, at most 1 MiB.`),
      preview, note,
      h('p', { class: 'field-error', id: 'banner-error', hidden: true })),
    h('button', { type: 'submit', class: 'button button-primary' }, 'Upload the banner')), async () => {
    const file = input.files?.[0]
    if (!file) throw new ApiError(400, 'INVALID_PARAMETER', 'choose an image file first', 'banner')
    await putFile(serverPath(server.slug, '/banner'), file)
    announce('Banner saved.')
    await refresh(server.slug)
  }, 'Uploading…')

  const remove = server.bannerUrl
    ? actionButton('Remove the banner', async () => {
      await del(serverPath(server.slug, '/banner'))
      announce('Banner removed.')
      await refresh(server.slug)
    }, { confirmText: `Remove the banner of ${server.name}?` })
    : null

  return h('section', { class: 'card' }, h('h2', null, 'Banner'),
    h('p', { class: 'muted' }, 'Shown on your server\'s row in the ranking and on its page.'),
    current, remove, form)
}
