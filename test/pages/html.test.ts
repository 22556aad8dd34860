import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { escapeHtml, html, raw, safeUrl } from '../../src/pages/html.ts'

describe('html templates', () => {
  test('interpolated text is escaped, in text and in quoted attributes', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='x' \`&`
    const out = html`<p title="${hostile}" data-x='${hostile}'>${hostile}</p>`.value
    expect(out).toBe(`<p title="${escapeHtml(hostile)}" data-x='${escapeHtml(hostile)}'>${escapeHtml(hostile)}</p>`)
    expect(out).not.toContain('<script>')
    expect(out).not.toMatch(/'\s*onmouseover/)
  })

  test('nested templates, arrays, numbers and empty values compose without double escaping', () => {
    const items = ['a<b', 'c&d']
    const list = html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`
    expect(html`<div>${list}${0}${null}${undefined}${false}</div>`.value).toBe('<div><ul><li>a&lt;b</li><li>c&amp;d</li></ul>0</div>')
  })

  test('raw() is the only way to insert markup as is', () => {
    expect(html`${raw('<br>')}${'<br>'}`.value).toBe('<br>&lt;br&gt;')
  })

  test('an interpolation in an unquoted attribute is refused', () => {
    expect(() => html`<a href=${'x onclick=alert(1)'}>x</a>`).toThrow('unquoted attribute')
  })

  test('any string survives a round trip through escaping (no markup can be injected)', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const out = html`<p title="${s}">${s}</p>`.value
      const inner = out.slice('<p title="'.length, out.indexOf('">'))
      expect(inner).not.toMatch(/[<>"'`]/)
      const unescape = (t: string) => t.replace(/&lt;|&gt;|&quot;|&#39;|&#96;|&amp;/g, (e) => ({ '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`', '&amp;': '&' })[e]!)
      expect(unescape(inner)).toBe(s)
    }))
  })

  test('safeUrl keeps http(s) URLs only', () => {
    expect(safeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1')
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'JAVASCRIPT:x', '//evil.example', 'not a url', '']) expect(safeUrl(bad)).toBeNull()
  })
})
