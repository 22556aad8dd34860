// Plain text of what servers show in the list: formatting codes (§ and the character after it)
// and control characters other than the line break are removed, lines are trimmed.

const MAX_TEXT = 1024
const MAX_DEPTH = 32

export function stripFormatting(text: string): string {
  return text
    .replace(/§./gsu, '')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '')
    .split('\n').map((line) => line.trim()).join('\n')
    .trim()
    .slice(0, MAX_TEXT)
}

// A status `description` is a string or a chat component: {text, extra: [component…]} (also a
// bare array of components). The plain text is the text of the component tree in order.
export function chatText(component: unknown): string {
  const parts: string[] = []
  let length = 0
  const walk = (c: unknown, depth: number) => {
    if (depth > MAX_DEPTH || length > MAX_TEXT) return
    if (typeof c === 'string' || typeof c === 'number') {
      parts.push(String(c))
      length += String(c).length
    } else if (Array.isArray(c)) {
      for (const x of c) walk(x, depth + 1)
    } else if (c && typeof c === 'object') {
      const o = c as { text?: unknown; translate?: unknown; extra?: unknown }
      if (typeof o.text === 'string') walk(o.text, depth + 1)
      else if (typeof o.translate === 'string') walk(o.translate, depth + 1)
      if (Array.isArray(o.extra)) walk(o.extra, depth + 1)
    }
  }
  walk(component, 0)
  return stripFormatting(parts.join(''))
}
