import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { posix } from 'node:path'
import { basename, dirname, isAbsolute, join, resolve } from '../../src/file-path.ts'

// The site's own path functions stand in for node:path at start; they must give its answers.
const segment = fc.constantFrom('', '.', '..', '...', 'a', 'bc', 'web', '.hidden', 'a.b', ' ', 'é')
const path = fc.array(segment, { maxLength: 7 }).chain((parts) => fc.boolean().map((leading) => (leading ? '/' : '') + parts.join('/')))

describe('file paths', () => {
  test('give node:path.posix answers for random paths', () => {
    fc.assert(fc.property(path, (p) => {
      expect(isAbsolute(p)).toBe(posix.isAbsolute(p))
      expect(dirname(p)).toBe(posix.dirname(p))
      expect(basename(p)).toBe(posix.basename(p))
    }), { numRuns: 5000 })
    fc.assert(fc.property(fc.array(path, { maxLength: 4 }), (ps) => {
      expect(join(...ps)).toBe(posix.join(...ps))
      expect(resolve(...ps)).toBe(posix.resolve(...ps))
    }), { numRuns: 5000 })
  })

  test('give node:path.posix answers for the edge cases', () => {
    const cases = ['', '/', '//', '///', 'a', '/a', '//a', 'a/', 'a//', 'a//b', '/a//b/', '../..', '/..', './', '.', '..', 'a/../..', '/a/b/../../..']
    for (const p of cases) {
      expect([p, dirname(p), basename(p), join(p), resolve(p)]).toEqual([p, posix.dirname(p), posix.basename(p), posix.join(p), posix.resolve(p)])
      expect(join(p, 'x', p)).toBe(posix.join(p, 'x', p))
      expect(resolve('/root', p, 'y')).toBe(posix.resolve('/root', p, 'y'))
    }
    expect(join()).toBe('.')
    expect(resolve()).toBe(process.cwd())
  })
})
