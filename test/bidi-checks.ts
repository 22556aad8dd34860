import type { Locator } from 'playwright-core'

// Where a name holding direction marks is drawn, measured in the browser (the pages' and the
// dashboard's bidi tests).

// Whether the "✓ Verified" mark inside `scope` comes after (right of) the text holding `name`.
export async function markAfter(scope: Locator, name: string): Promise<boolean> {
  return scope.evaluate((el, name) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent!.includes(name)) continue
      const r = document.createRange()
      r.selectNodeContents(node)
      return el.querySelector('.verified')!.getBoundingClientRect().left >= r.getBoundingClientRect().right - 0.5
    }
    throw new Error(`"${name}" is not in ${el.outerHTML}`)
  }, name)
}
