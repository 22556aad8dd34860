import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { motdFromBedrock, motdFromChat, motdFromLegacy, motdText, NAMED_COLORS, readMotd, stripFormatting, type Motd } from '../../src/motd/format.ts'
import { colorClass, renderMotdLines } from '../../src/pages/motd.ts'

describe('legacy § codes', () => {
  test('colours, formats and reset, as the game applies them', () => {
    expect(motdFromLegacy('§6Gold §rplain §a§lbold green§c red')).toEqual([[
      { text: 'Gold ', color: '#ffaa00' },
      { text: 'plain ' },
      { text: 'bold green', color: '#55ff55', bold: true },
      // A colour code clears the formats before it.
      { text: ' red', color: '#ff5555' },
    ]])
    expect(motdFromLegacy('§nunder§mstrike§o§kmagic')).toEqual([[
      { text: 'under', underlined: true },
      { text: 'strike', underlined: true, strikethrough: true },
      // Obfuscated text is shown plain.
      { text: 'magic', underlined: true, strikethrough: true, italic: true },
    ]])
  })

  test('BungeeCord hex colours, unknown codes dropped, a trailing § dropped, upper-case codes', () => {
    expect(motdFromLegacy('§x§1§2§A§b§c§dHex§zX§')).toEqual([[{ text: 'HexX', color: '#12abcd' }]])
    expect(motdFromLegacy('§CRed')).toEqual([[{ text: 'Red', color: '#ff5555' }]])
  })

  test('lines are trimmed, empty edge lines dropped; Bedrock lines each start plain', () => {
    expect(motdFromLegacy('  §bHello  \n\n  §7World ', '§lLevel')).toEqual([
      [{ text: 'Hello', color: '#55ffff' }], [], [{ text: 'World', color: '#aaaaaa' }], [{ text: 'Level', bold: true }],
    ])
    expect(motdFromLegacy('\n\n')).toEqual([])
  })

  test('names and versions lose their codes and control characters', () => {
    expect(stripFormatting('§l§6Paper\u0007 1.21.4 ')).toBe('Paper 1.21.4')
  })
})

// Bedrock's client reads § codes its own way (minecraft.wiki, "Formatting codes"): its material
// colours, §m and §n as colours, and formats that a colour does not clear.
describe('Bedrock § codes', () => {
  test('material colours, §m and §n as colours (not strikethrough and underline), a colour keeps the formats', () => {
    expect(motdFromBedrock('§gCoins §mRedstone§nCopper', '§lBold §bstill bold§r plain §qEmerald §vResin')).toEqual([
      [{ text: 'Coins ', color: '#ddd605' }, { text: 'Redstone', color: '#971607' }, { text: 'Copper', color: '#b4684d' }],
      [{ text: 'Bold ', bold: true }, { text: 'still bold', color: '#55ffff', bold: true }, { text: ' plain ' }, { text: 'Emerald ', color: '#47a036' }, { text: 'Resin', color: '#eb7114' }],
    ])
    expect(motdFromBedrock('§h§i§j§p§s§t§u').length).toBe(0)
    expect(motdFromBedrock('§hA§iB§jC§pD§sE§tF§uG').flat().map((s) => s.color)).toEqual(['#e3d4d1', '#cecaca', '#443a3b', '#deb12d', '#2cbaa8', '#21497b', '#9a5cc6'])
  })

  test('no BungeeCord hex form: §x is an unknown code, each § digit after it a colour', () => {
    expect(motdFromBedrock('§x§1§2§A§b§c§dHex')).toEqual([[{ text: 'Hex', color: '#ff55ff' }]])
  })

  test('names and the Java legacy ping keep Java\'s reading', () => {
    expect(motdFromLegacy('§gA§mB')).toEqual([[{ text: 'A' }, { text: 'B', strikethrough: true }]])
  })
})

describe('JSON chat components', () => {
  test('inheritance, hex colours (1.16+), reset, explicit false, legacy codes inside text', () => {
    const motd = motdFromChat({
      text: 'Emerald ', color: 'green', bold: true,
      extra: [
        { text: 'Valley', color: '#3FA9F5', bold: false },
        { text: ' §cred§r back', italic: true },
        { text: '\nSecond', color: 'reset', strikethrough: true, underlined: true },
      ],
    })
    expect(motd).toEqual([
      [
        { text: 'Emerald ', color: '#55ff55', bold: true },
        { text: 'Valley', color: '#3fa9f5' },
        { text: ' ', color: '#55ff55', bold: true, italic: true },
        { text: 'red', color: '#ff5555' },
        { text: ' back', color: '#55ff55', bold: true, italic: true },
      ],
      [{ text: 'Second', bold: true, underlined: true, strikethrough: true }],
    ])
    expect(motdText(motd)).toBe('Emerald Valley red back\nSecond')
  })

  test('an array is its first element with the rest as children; translate shows its fallback', () => {
    expect(motdFromChat([{ text: 'A', color: 'gold' }, 'B', { translate: 'x.y', fallback: 'C', bold: true }, { translate: 'key.only' }, 7])).toEqual([[
      { text: 'AB', color: '#ffaa00' }, { text: 'C', color: '#ffaa00', bold: true }, { text: 'key.only7', color: '#ffaa00' },
    ]])
  })

  test('a colour named like an Object property (__proto__, constructor, toString) is no colour', () => {
    for (const color of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(motdFromChat({ color, extra: ['<script>'] })).toEqual(motdFromChat({ extra: ['<script>'] }))
    }
  })

  test('bad colours are ignored, deep or huge trees are bounded', () => {
    expect(motdFromChat({ text: 'x', color: 'javascript:alert(1)' })).toEqual([[{ text: 'x' }]])
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100; i++) deep = { text: 'a', extra: [deep] }
    expect(motdText(motdFromChat(deep))).toBe('a'.repeat(33))
    expect(motdText(motdFromChat('x'.repeat(5000))).length).toBe(1024)
    const many = motdFromChat({ text: '', extra: Array.from({ length: 1000 }, (_, i) => ({ text: 'y', color: i % 2 ? 'red' : 'blue' })) })
    expect(many[0].length).toBe(256)
    // Line breaks count: a MOTD of line breaks alone is no bigger than 1,024 characters either.
    const breaks = motdFromChat('a' + '\n'.repeat(100_000) + 'b')
    expect(motdText(breaks).length).toBeLessThanOrEqual(1024)
    expect(breaks.length).toBe(1) // the text after the 1,024th character is cut, so are the empty lines before it
    expect(motdText(motdFromLegacy('a' + '\n'.repeat(100_000), 'b')).length).toBeLessThanOrEqual(1024)
  })
})

describe('stored form', () => {
  test('what is written reads back; anything else is no MOTD', () => {
    const motd = motdFromLegacy('§aHi §lthere')
    expect(readMotd(JSON.stringify(motd))).toEqual(motd)
    for (const bad of ['nope', '{}', '[{}]', '[[{"text":1}]]', '[[{"text":"a","color":"red"}]]', '[[{"text":"a","bold":false}]]',
      '[[{"text":"a","style":"x"}]]', '[[{"text":"a","color":"#abc\\"><script>"}]]']) {
      expect(readMotd(bad)).toBeNull()
    }
    expect(readMotd(null)).toBeNull()
  })
})

describe('rendered to HTML', () => {
  test('classes for colours and formats, text escaped, <br> between lines, as many lines as asked', () => {
    const motd = motdFromLegacy('§c<b>Red</b> & §lbold', '§x§3§f§a§9§f§5hex')
    expect(renderMotdLines(motd, 2).value).toBe('<span class="mc-311">&lt;b&gt;Red&lt;/b&gt; &amp; </span><span class="mc-311 mc-b">bold</span><br><span class="mc-123">hex</span>')
    expect(renderMotdLines(motd, 1).value).toBe('<span class="mc-311">&lt;b&gt;Red&lt;/b&gt; &amp; </span><span class="mc-311 mc-b">bold</span>')
  })

  test('each named colour is its own class', () => {
    const classes = Object.values(NAMED_COLORS).map(colorClass)
    expect(new Set(classes).size).toBe(16)
    expect(colorClass('#ffaa00')).toBe('mc-320')
  })

  // The markup a MOTD may produce: spans with our classes, and line breaks. Anything else left
  // after removing them would be markup that came from a server.
  const OUR_TAGS = /<span class="mc-(?:[0-3]{3}|[bius])(?: mc-[bius])*">|<\/span>|<br>/g
  const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`' }
  const shown = (motd: Motd, lines: number) => motd.slice(0, lines).map((l) => l.map((s) => s.text).join('')).join('\n')
  function checkRendered(motd: Motd) {
    for (const lines of [1, 2]) {
      const out = renderMotdLines(motd, lines).value
      expect(out).not.toContain('§')
      const text = out.replace(/<br>/g, '\n').replace(OUR_TAGS, '')
      expect(text).not.toMatch(/[<>"'`]/)
      expect(text.replace(/&(?!amp;|lt;|gt;|quot;|#39;|#96;)/g, '')).toBe(text)
      expect(text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (e) => ENTITIES[e])).toBe(shown(motd, lines))
    }
    expect(motdText(motd)).not.toContain('§')
  }

  // Strings rich in what can go wrong: § codes (valid or not), markup, entities, line breaks.
  const nasty = fc.array(fc.constantFrom('§', '§a', '§l', '§r', '§x', '§k', '§g', '§m', '§§', '<', '>', '&', '"', "'", '`', '&amp;', '<script>', '\n', ' ', 'a', 'Ω', '\u0000', '\ud83d\ude00', '§\ud83d\ude00'), { maxLength: 40 }).map((a) => a.join(''))
  const color = fc.oneof(fc.constantFrom(...Object.keys(NAMED_COLORS), 'reset', '#ABCDEF', '#12345', 'url(x)'), fc.string())
  const component: fc.Arbitrary<unknown> = fc.letrec<{ c: unknown }>((tie) => ({
    c: fc.oneof({ depthSize: 'small', withCrossShrink: true },
      nasty,
      fc.integer(),
      fc.array(tie('c'), { maxLength: 4 }),
      fc.record({
        text: fc.option(nasty, { nil: undefined }), translate: fc.option(nasty, { nil: undefined }), color: fc.option(color, { nil: undefined }),
        bold: fc.option(fc.boolean(), { nil: undefined }), italic: fc.option(fc.anything(), { nil: undefined }),
        underlined: fc.option(fc.boolean(), { nil: undefined }), strikethrough: fc.option(fc.boolean(), { nil: undefined }),
        obfuscated: fc.option(fc.boolean(), { nil: undefined }), extra: fc.option(fc.array(tie('c'), { maxLength: 4 }), { nil: undefined }),
      }, { requiredKeys: [] }),
    ),
  })).c

  test('property: legacy text never yields a §, control characters or markup', () => {
    fc.assert(fc.property(nasty, nasty, (a, b) => { checkRendered(motdFromLegacy(a, b)); checkRendered(motdFromBedrock(a, b)) }), { numRuns: 500 })
  })

  test('property: chat components never yield a §, control characters or markup, and survive storage', () => {
    fc.assert(fc.property(component, (c) => {
      const motd = motdFromChat(c)
      checkRendered(motd)
      expect(readMotd(JSON.stringify(motd))).toEqual(motd)
      expect(motdText(motd)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    }), { numRuns: 500 })
  })
})
