import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

// The shape of src/ that the code relies on to stay changeable: features that do not import each
// other in circles, files a reader can hold in mind, and a database that only the store knows.

const SRC = resolve(import.meta.dir, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return e.name.endsWith('.ts') ? [path] : []
  })
}

// Every module a file imports (type-only imports too: they tie the designs together just the
// same), as written and, for files of src/, as a path relative to src/.
function importsOf(file: string): { spec: string; target: string | null }[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)]
    .map((m) => m[1] ?? m[2] ?? m[3])
  return specs.map((spec) => {
    if (!spec.startsWith('.')) return { spec, target: null }
    const path = resolve(dirname(file), spec)
    return { spec, target: path.startsWith(SRC + '/') ? relative(SRC, path) : null }
  })
}

const files = sourceFiles(SRC).map((path) => ({ path, name: relative(SRC, path) }))

// A folder of src/ is a node; so is each file at the top of src/ (the composition root, and the
// small modules every feature shares: the clock, ids, the log).
const nodeOf = (name: string) => (name.includes('/') ? name.slice(0, name.indexOf('/')) + '/' : name)

describe('the structure of src/', () => {
  test('no import cycle between folders: each folder only imports folders below it', () => {
    // The arrows between nodes, each with the imports that draw it.
    const arrows = new Map<string, Map<string, string[]>>()
    for (const f of files) {
      for (const { target } of importsOf(f.path)) {
        if (!target) continue
        const [from, to] = [nodeOf(f.name), nodeOf(target)]
        if (from === to) continue
        if (!arrows.has(from)) arrows.set(from, new Map())
        const why = arrows.get(from)!
        why.set(to, [...(why.get(to) ?? []), `${f.name} -> ${target}`])
      }
    }
    // A depth-first walk: an arrow back to a folder still on the path closes a circle, reported
    // with one import for each of its arrows.
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const path: string[] = []
    const walk = (node: string) => {
      state.set(node, 'open')
      path.push(node)
      for (const next of arrows.get(node)?.keys() ?? []) {
        if (state.get(next) === 'open') {
          const loop = [...path.slice(path.indexOf(next)), next]
          cycles.push([loop.join(' -> '), ...loop.slice(0, -1).map((n, i) => `  ${arrows.get(n)!.get(loop[i + 1])![0]}`)].join('\n'))
        } else if (!state.has(next)) walk(next)
      }
      path.pop()
      state.set(node, 'done')
    }
    for (const node of arrows.keys()) if (!state.has(node)) walk(node)
    expect(cycles).toEqual([])
  })

  test('no file is over 300 lines', () => {
    const long = files
      .map((f) => ({ name: f.name, lines: readFileSync(f.path, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 300)
      .map((f) => `${f.name}: ${f.lines} lines`)
    expect(long).toEqual([])
  })

  test('below the composition root, nothing imports the runtime or the site: each declares what it uses', () => {
    const root = new Set(['runtime.ts', 'site.ts'])
    const offenders = files
      .filter((f) => f.name.includes('/'))
      .flatMap((f) => importsOf(f.path).filter((i) => i.target && root.has(i.target)).map((i) => `${f.name} imports ${i.target}`))
    expect(offenders).toEqual([])
  })

  test('only src/db/ and the SQLite repositories (sqlite-*.ts) import bun:sqlite', () => {
    const offenders = files
      .filter((f) => !f.name.startsWith('db/') && !/(^|\/)sqlite-[^/]+\.ts$/.test(f.name))
      .filter((f) => importsOf(f.path).some((i) => i.spec === 'bun:sqlite'))
      .map((f) => f.name)
    expect(offenders).toEqual([])
  })

  // Named anywhere in the sources, imported or required at first use, these modules are part of
  // the compiled binary's start: node:crypto took milliseconds of every start and 1 MB of idle
  // memory, node:http 1 MB (bench startup; the target is 55 MB). Bun's hasher (ids.ts) and node:net
  // (src/lazy-modules.ts) do their work here.
  test('no source names node:crypto, node:http or node:https', () => {
    const offenders = files
      .filter((f) => /['"]node:(crypto|https?)['"]/.test(readFileSync(f.path, 'utf8')))
      .map((f) => f.name)
    expect(offenders).toEqual([])
  })
})
