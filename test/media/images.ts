import { deflateSync } from 'node:zlib'

// Real image files made in the tests, each of the size asked: what an owner uploads and a
// server sends.

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const b = new Uint8Array(12 + data.length)
  const view = new DataView(b.buffer)
  view.setUint32(0, data.length)
  b.set(new TextEncoder().encode(type), 4)
  b.set(data, 8)
  view.setUint32(8 + data.length, Bun.hash.crc32(b.subarray(4, 8 + data.length)))
  return b
}

// An RGB PNG filled with one colour; `extra` bytes of noise in a private chunk make it larger.
export function png(width: number, height: number, rgb = [40, 160, 90], extra = 0): Uint8Array {
  const row = new Uint8Array(1 + width * 3)
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3)
  const raw = new Uint8Array(row.length * height)
  for (let y = 0; y < height; y++) raw.set(row, y * row.length)
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  ihdr[8] = 8
  ihdr[9] = 2
  const chunks = [pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw))]
  if (extra) chunks.push(pngChunk('prVt', crypto.getRandomValues(new Uint8Array(extra)).map((v) => v)))
  chunks.push(pngChunk('IEND', new Uint8Array()))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks])
}

// An animated GIF: a `width`×`height` screen, `frames` frames of one pixel each looping forever
// (or of `frame` pixels: the pixel data is still one pixel's, as a decoder takes it).
export function animatedGif(width: number, height: number, frames = 2, frame = { width: 1, height: 1 }): Uint8Array {
  const u16 = (n: number) => [n & 0xff, n >> 8]
  const bytes = [
    ...'GIF89a'.split('').map((c) => c.charCodeAt(0)), ...u16(width), ...u16(height), 0xf0, 0, 0,
    0x00, 0x00, 0x00, 0xff, 0xff, 0xff, // two colours
    0x21, 0xff, 0x0b, ...'NETSCAPE2.0'.split('').map((c) => c.charCodeAt(0)), 0x03, 0x01, 0x00, 0x00, 0x00,
  ]
  for (let i = 0; i < frames; i++) {
    bytes.push(0x21, 0xf9, 0x04, 0x00, 0x32, 0x00, 0x00, 0x00) // 0.5 s a frame
    bytes.push(0x2c, ...u16(i), 0, 0, ...u16(frame.width), ...u16(frame.height), 0x00, 0x02, 0x02, 0x44, 0x01, 0x00) // a frame at (i, 0)
  }
  bytes.push(0x3b)
  return Uint8Array.from(bytes)
}

// The first segments of a baseline JPEG: SOI, APP0 (JFIF), SOF0 with the size.
export function jpegHeader(width: number, height: number): Uint8Array {
  return Uint8Array.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
    0xff, 0xff, // a fill byte
    0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
    0xff, 0xd9,
  ])
}

// WebP headers of each kind: lossless (VP8L), lossy (VP8) and extended (VP8X, as animations are).
export function webpHeader(kind: 'VP8L' | 'VP8 ' | 'VP8X', width: number, height: number): Uint8Array {
  let data: number[]
  if (kind === 'VP8L') {
    const bits = ((width - 1) | ((height - 1) << 14)) >>> 0
    data = [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24, 0, 0, 0, 0, 0]
  } else if (kind === 'VP8 ') {
    data = [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, width & 0xff, width >> 8, height & 0xff, height >> 8]
  } else {
    const w = width - 1
    const h = height - 1
    data = [0x02, 0, 0, 0, w & 0xff, (w >> 8) & 0xff, w >> 16, h & 0xff, (h >> 8) & 0xff, h >> 16]
  }
  const size = 4 + 8 + data.length
  return Uint8Array.from([
    ...'RIFF'.split('').map((c) => c.charCodeAt(0)), size & 0xff, (size >> 8) & 0xff, 0, 0,
    ...'WEBP'.split('').map((c) => c.charCodeAt(0)), ...kind.split('').map((c) => c.charCodeAt(0)), data.length, 0, 0, 0, ...data,
  ])
}

export const dataUrl = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`
