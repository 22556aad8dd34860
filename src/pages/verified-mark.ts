import type { Tr } from './text.ts'
import { html, type Html } from './html.ts'

// The mark of a server whose owner proved they run it (the listing's token read in its MOTD), as
// the ranking rows, the server page and the vote page show it: a check sign for the eye and the
// word for everyone (never colour alone), with the meaning in its title. It starts with a space, so
// that it reads as a word of its own after the name.
export function renderVerifiedMark(tr: Tr, verified: boolean): Html | '' {
  return verified
    ? html` <span class="verified" title="${tr.t('common.verifiedTitle')}"><span aria-hidden="true">✓</span> ${tr.t('common.verified')}</span>`
    : ''
}
