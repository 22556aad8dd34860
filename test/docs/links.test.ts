import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanupTemp, tempDir } from '../helpers.ts'
import { brokenLinks, docPages, headingSlugs, links, repoRoot } from './markdown.ts'

afterAll(cleanupTemp)

describe('the docs', () => {
  test('README.md is a front door: under 300 lines, with a link to each page of docs/', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')
    expect(readme.split('\n').length).toBeLessThan(300)
    const targets = new Set(links(readme).map((l) => l.target.split('#')[0]))
    const pages = docPages().filter((p) => p.startsWith('docs/'))
    expect(pages).toEqual(expect.arrayContaining(['docs/admins.md', 'docs/configuration.md', 'docs/owners.md', 'docs/plugin-authors.md', 'docs/developers.md']))
    expect(pages.filter((p) => !targets.has(p))).toEqual([])
  })

  test('every link of README.md and docs/ resolves: files exist, anchors name a heading, web addresses parse (never fetched)', () => {
    const realFetch = globalThis.fetch
    globalThis.fetch = (() => { throw new Error('the link check must not use the network') }) as unknown as typeof fetch
    try {
      const pages = docPages()
      expect(pages.length).toBeGreaterThan(5)
      expect(pages.flatMap((p) => brokenLinks(p))).toEqual([])
    } finally {
      globalThis.fetch = realFetch
    }
  })
})

describe('the link check', () => {
  test('finds GitHub\'s anchors: punctuation dropped, code kept as text, repeats numbered', () => {
    const slugs = headingSlugs([
      '# Running votelist', '## Install on a server (systemd)', '### `votelist backup`: a copy, online',
      '## Étape 2 — vérifier', '## Limits', '### Limits', '```sh', '# not a heading', '```',
    ].join('\n'))
    expect([...slugs]).toEqual(['running-votelist', 'install-on-a-server-systemd', 'votelist-backup-a-copy-online', 'étape-2--vérifier', 'limits', 'limits-1'])
  })

  test('reports a missing file, a missing anchor, an absolute path, a bad web address; ignores links shown as code', () => {
    const root = tempDir()
    mkdirSync(join(root, 'docs'))
    writeFileSync(join(root, 'README.md'), [
      '# Home', 'See [admins](docs/admins.md#backups), [gone](docs/gone.md), [top](#home), [nowhere](#nowhere),',
      '[api](/api/docs), [site](https://vote.example.org/a(b)c), [bad](https://), <https://example.com/x>,',
      'a [multi-line', 'link](docs/admins.md#install) and `[code](missing.md)`.', '```md', '[in a block](missing.md)', '```',
      '[ref]: docs/admins.md#backup',
    ].join('\n'))
    writeFileSync(join(root, 'docs/admins.md'), '# Admins\n## Backups\n## Install\n[up](../README.md#home) [file](../README.md)\n')
    expect(brokenLinks('README.md', root)).toEqual([
      'README.md:2: docs/gone.md: no such file',
      'README.md:2: #nowhere: no heading with the anchor #nowhere in README.md',
      'README.md:3: /api/docs: an absolute path; link relative to the page, or write a site path as code',
      'README.md:3: https://: not a valid web address',
      'README.md:9: docs/admins.md#backup: no heading with the anchor #backup in docs/admins.md',
    ])
    expect(brokenLinks('docs/admins.md', root)).toEqual([])
    expect(docPages(root)).toEqual(['README.md', 'docs/admins.md'])
  })
})
