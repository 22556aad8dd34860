import { describe, expect, test } from 'bun:test'
import { iconFromFavicon, ICON_MAX_BYTES } from '../../src/media/icon.ts'
import { readImageInfo } from '../../src/media/image-info.ts'
import { animatedGif, dataUrl, jpegHeader, png, webpHeader } from './images.ts'

describe('the type and size of an image, from its own bytes', () => {
  test('PNG, GIF, JPEG and each kind of WebP', () => {
    expect(readImageInfo(png(468, 60))).toEqual({ type: 'image/png', width: 468, height: 60 })
    expect(readImageInfo(animatedGif(468, 60, 3))).toEqual({ type: 'image/gif', width: 468, height: 60 })
    expect(readImageInfo(jpegHeader(640, 480))).toEqual({ type: 'image/jpeg', width: 640, height: 480 })
    expect(readImageInfo(webpHeader('VP8L', 468, 60))).toEqual({ type: 'image/webp', width: 468, height: 60 })
    expect(readImageInfo(webpHeader('VP8 ', 300, 200))).toEqual({ type: 'image/webp', width: 300, height: 200 })
    expect(readImageInfo(webpHeader('VP8X', 4000, 3000))).toEqual({ type: 'image/webp', width: 4000, height: 3000 })
  })

  test('anything else, or an image cut short or damaged, is no image', () => {
    const good = png(64, 64)
    const gif = animatedGif(468, 60)
    const badCrc = good.slice()
    badCrc[20] ^= 1 // the height, so the IHDR CRC no longer matches
    for (const bytes of [
      new TextEncoder().encode('<!doctype html><script>alert(1)</script>'), new Uint8Array(), good.subarray(0, good.length - 12), badCrc,
      Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0]), // a JPEG scan before any frame
      new TextEncoder().encode('RIFF\0\0\0\0WEBPXXXX0000000000000000'), new TextEncoder().encode('GIF8'),
      gif.subarray(0, gif.length - 1), gif.subarray(0, gif.length - 4), // GIFs cut before their trailer
    ]) expect(readImageInfo(bytes)).toBeNull()
  })
})

describe('the server icon from a status favicon', () => {
  test('a PNG of at most 64×64 is kept, with its hash; line-wrapped base64 too', () => {
    const icon = iconFromFavicon(dataUrl(png(64, 64)))!
    expect(Buffer.from(icon.png).equals(Buffer.from(png(64, 64)))).toBe(true)
    expect(icon.hash).toMatch(/^[0-9a-f]{64}$/)
    const wrapped = dataUrl(png(32, 32)).replace(/(.{76})/g, '$1\n')
    expect(iconFromFavicon(wrapped)?.png.length).toBe(png(32, 32).length)
  })

  test('absent, larger than 64×64, over the size bound, not a PNG, or not base64: none', () => {
    const gifUrl = `data:image/png;base64,${Buffer.from(animatedGif(64, 64)).toString('base64')}`
    for (const favicon of [null, '', dataUrl(png(65, 64)), dataUrl(png(64, 64, [1, 2, 3], ICON_MAX_BYTES)), gifUrl,
      'data:image/png;base64,!!!notbase64', 'data:text/html;base64,PHNjcmlwdD4=', `data:image/svg+xml;base64,${btoa('<svg/>')}`]) {
      expect(iconFromFavicon(favicon)).toBeNull()
    }
  })
})
