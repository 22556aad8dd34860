import { expect, test } from 'bun:test'
import { contrast, MOTD_BACKGROUND, paletteBlock, siteCssBlock } from './motd-palette.ts'

test('site.css draws every MOTD colour class readable (4.5:1) on the MOTD box', () => {
  // After a change of the palette or the background: bun test/pages/motd-palette.ts
  expect(siteCssBlock()).toBe(paletteBlock())
  const colours = [...paletteBlock().matchAll(/\.mc-([0-3]{3}) \{ color: #([0-9a-f]{6}); \}/g)]
  expect(colours.length).toBe(64)
  for (const [, , colour] of colours) {
    const rgb = [0, 2, 4].map((i) => parseInt(colour.slice(i, i + 2), 16))
    expect(contrast(rgb, MOTD_BACKGROUND)).toBeGreaterThanOrEqual(4.5)
  }
  // The game's bright colours are kept as they are.
  expect(paletteBlock()).toContain('.mc-333 { color: #ffffff; }')
  expect(paletteBlock()).toContain('.mc-320 { color: #ffaa00; }')
  expect(paletteBlock()).toContain('.mc-311 { color: #ff5555; }')
})
