// Just enough Markdown reading for the tests that keep the docs true: the code blocks of a page,
// the links of its prose (never those shown inside code), and the anchors GitHub gives its headings.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dir, '../..')

// README.md and every page under docs/, as paths relative to the repository.
export function docPages(root = repoRoot): string[] {
  const pages = ['README.md']
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name)
      if (statSync(join(root, path)).isDirectory()) walk(path)
      else if (name.endsWith('.md')) pages.push(path)
    }
  }
  if (existsSync(join(root, 'docs'))) walk('docs')
  return pages
}

export interface CodeBlock { info: string; code: string; line: number }

// A line opening a fenced block (``` or ~~~, up to 3 spaces in), and one closing `fence`.
const opening = (line: string) => /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line)
const closes = (line: string, fence: string) => {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
  return m !== null && m[1][0] === fence[0] && m[1].length >= fence.length
}

// Fenced blocks with their info string ("ts", "java", …) and the line number of the fence.
export function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  let open: { fence: string; info: string; line: number; lines: string[] } | null = null
  text.split('\n').forEach((line, i) => {
    if (open && closes(line, open.fence)) {
      blocks.push({ info: open.info, code: open.lines.map((l) => l + '\n').join(''), line: open.line })
      open = null
    } else if (open) {
      open.lines.push(line)
    } else {
      const m = opening(line)
      if (m) open = { fence: m[1], info: m[2].trim(), line: i + 1, lines: [] }
    }
  })
  return blocks
}

// The prose of a page: fenced blocks become empty lines (line numbers stay right) and inline code
// spans become spaces, so that nothing shown as code is read as a link or a heading.
function prose(text: string): string {
  let fence: string | null = null
  const lines = text.split('\n').map((line) => {
    if (fence) {
      if (closes(line, fence)) fence = null
      return ''
    }
    const m = opening(line)
    if (m) { fence = m[1]; return '' }
    return line
  })
  return lines.join('\n').replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '))
}

// GitHub's anchor for a heading: its text lower-cased, without punctuation, spaces as hyphens;
// a repeated heading gets -1, -2… (as github-slugger does).
export function headingSlugs(text: string): Set<string> {
  const slugs = new Set<string>()
  const seen = new Map<string, number>()
  let fence: string | null = null
  for (const line of text.split('\n')) {
    if (fence) { if (closes(line, fence)) fence = null; continue }
    const f = opening(line)
    if (f) { fence = f[1]; continue }
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!h) continue
    const rendered = h[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
      .replace(/<[^>]+>/g, '') // HTML tags
      .replace(/[`*]/g, '') // code spans and emphasis keep their text
    const base = rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    slugs.add(n === 0 ? base : `${base}-${n}`)
  }
  return slugs
}

export interface Link { target: string; line: number }

// Inline links and images, autolinks (<https://…>) and reference definitions of the prose.
export function links(text: string): Link[] {
  const body = prose(text)
  const found: Link[] = []
  const lineOf = (index: number) => body.slice(0, index).split('\n').length
  const patterns = [
    /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^()\s<>]*(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
    /<((?:https?|mailto):[^>\s]+)>/g,
    /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm,
  ]
  for (const re of patterns) {
    for (const m of body.matchAll(re)) found.push({ target: m[1], line: lineOf(m.index) })
  }
  return found.sort((a, b) => a.line - b.line)
}

// What is wrong with each link of a page ([] when every link resolves). Relative links must name
// a file or folder of the repository, and an #anchor a heading of the Markdown page it points to;
// web addresses are only parsed, never fetched.
export function brokenLinks(page: string, root = repoRoot): string[] {
  const text = readFileSync(join(root, page), 'utf8')
  const problems: string[] = []
  const slugsOf = new Map<string, Set<string>>()
  const slugs = (file: string) => {
    if (!slugsOf.has(file)) slugsOf.set(file, headingSlugs(readFileSync(file, 'utf8')))
    return slugsOf.get(file)!
  }
  for (const { target, line } of links(text)) {
    const where = `${page}:${line}: ${target}`
    if (/^https?:/i.test(target)) {
      if (!URL.canParse(target) || !/^https?:\/\/[^/?#\s]+/i.test(target)) problems.push(`${where}: not a valid web address`)
      continue
    }
    if (/^mailto:[^@\s]+@[^@\s]+$/i.test(target)) continue
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) { problems.push(`${where}: only http(s) and mailto links are allowed`); continue }
    if (target.startsWith('/')) { problems.push(`${where}: an absolute path; link relative to the page, or write a site path as code`); continue }
    const hash = target.indexOf('#')
    const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash))
    const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1))
    const file = path === '' ? join(root, page) : resolve(root, dirname(page), path)
    if (relative(root, file).startsWith('..')) { problems.push(`${where}: points outside the repository`); continue }
    if (!existsSync(file)) { problems.push(`${where}: no such file`); continue }
    if (anchor === null) continue
    if (!file.endsWith('.md')) problems.push(`${where}: an anchor into a file that is not Markdown`)
    else if (!slugs(file).has(anchor)) problems.push(`${where}: no heading with the anchor #${anchor} in ${relative(root, file)}`)
  }
  return problems
}
