// A strict XML 1.0 well-formedness check for the documents votelist generates (no DTD, no
// processing instructions, no CDATA): one root element, names, quoted attributes without
// duplicates or a raw "<", only the five predefined entities and character references, proper
// nesting, and no character XML forbids. Returns the text content per element for assertions.
const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const INVALID_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u

function decode(text: string, where: string): string {
  if (INVALID_CHAR.test(text)) throw new Error(`character not allowed in XML in ${where}`)
  return text.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & in ${where}`)
    if (ref in ENTITIES) return ENTITIES[ref]
    const num = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref)
    if (!num) throw new Error(`unknown entity &${ref}; in ${where}`)
    const cp = num[1] ? parseInt(num[1], 16) : Number(num[2])
    const ch = String.fromCodePoint(cp)
    if (INVALID_CHAR.test(ch)) throw new Error(`reference to a forbidden character in ${where}`)
    return ch
  })
}

export interface XmlElement { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

export function parseXml(doc: string): XmlElement {
  let i = 0
  const stack: XmlElement[] = []
  let root: XmlElement | null = null
  const rest = () => doc.slice(i)
  while (i < doc.length) {
    if (doc[i] !== '<') {
      const end = doc.indexOf('<', i)
      const raw = doc.slice(i, end === -1 ? doc.length : end)
      // Stricter than XML (which only forbids "]]>"): generated text must escape every ">".
      if (raw.includes('>')) throw new Error('unescaped > in text')
      const text = decode(raw, 'text')
      if (!stack.length && text.trim()) throw new Error('text outside the root element')
      if (stack.length) stack[stack.length - 1].text += text
      i += raw.length
      continue
    }
    if (doc.startsWith('</', i)) {
      const m = /^<\/([A-Za-z_:][A-Za-z0-9_:.-]*)\s*>/.exec(rest())
      if (!m) throw new Error(`bad end tag at ${i}`)
      const open = stack.pop()
      if (!open || open.name !== m[1]) throw new Error(`</${m[1]}> does not close <${open?.name}>`)
      i += m[0].length
      continue
    }
    i++
    const name = NAME.exec(rest())
    if (!name) throw new Error(`bad tag name at ${i}`)
    i += name[0].length
    const el: XmlElement = { name: name[0], attrs: {}, children: [], text: '' }
    for (;;) {
      const ws = /^\s*/.exec(rest())![0]
      i += ws.length
      if (doc.startsWith('/>', i) || doc[i] === '>') break
      if (!ws) throw new Error(`attributes must be separated by white space at ${i}`)
      const attr = /^([A-Za-z_:][A-Za-z0-9_:.-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(rest())
      if (!attr) throw new Error(`bad attribute at ${i}: ${rest().slice(0, 30)}`)
      if (attr[1] in el.attrs) throw new Error(`duplicate attribute ${attr[1]}`)
      el.attrs[attr[1]] = decode(attr[3] ?? attr[4], `attribute ${attr[1]}`)
      i += attr[0].length
    }
    if (stack.length) stack[stack.length - 1].children.push(el)
    else if (root) throw new Error('more than one root element')
    else root = el
    if (doc.startsWith('/>', i)) i += 2
    else { i++; stack.push(el) }
  }
  if (stack.length) throw new Error(`<${stack[stack.length - 1].name}> is not closed`)
  if (!root) throw new Error('no root element')
  return root
}
