// The type and pixel size of an image, read from its own bytes (never from a header or a file
// name). Only the four formats pages may show: PNG, GIF, JPEG and WebP. Anything else, or bytes
// that stop before the size is known, is null.

export type ImageType = 'image/png' | 'image/gif' | 'image/jpeg' | 'image/webp'

export interface ImageInfo {
  type: ImageType
  width: number
  height: number
}

export const TYPE_NAMES: Record<ImageType, string> = { 'image/png': 'PNG', 'image/gif': 'GIF', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' }

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n))
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1]
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8)
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3])

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
// The IEND chunk every complete PNG ends with: length 0, type, CRC.
const PNG_END = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]

// PNG: the signature, then IHDR first (length 13, its CRC right), width and height as uint32
// big-endian; the file must end with IEND, so a cut-off upload is refused.
function png(b: Uint8Array): ImageInfo | null {
  if (b.length < 8 + 25 + 12 || !PNG_SIGNATURE.every((v, i) => b[i] === v)) return null
  if (u32be(b, 8) !== 13 || ascii(b, 12, 4) !== 'IHDR') return null
  if (Bun.hash.crc32(b.subarray(12, 29)) !== u32be(b, 29)) return null
  if (!PNG_END.every((v, i) => b[b.length - 12 + i] === v)) return null
  return { type: 'image/png', width: u32be(b, 16), height: u32be(b, 20) }
}

// GIF: "GIF87a" or "GIF89a", then the logical screen's width and height (uint16 little-endian),
// then its blocks up to the trailer (0x3b), so a cut-off upload is refused as a PNG's is. The
// screen alone is not the size shown: browsers grow it to hold a first frame larger than it, so
// a 468×60 screen with a 4000×4000 frame shows as 4000×4000. The size is the screen grown to
// hold every frame (each image descriptor's left + width, top + height).
function gif(b: Uint8Array): ImageInfo | null {
  if (b.length < 13) return null
  const head = ascii(b, 0, 6)
  if (head !== 'GIF87a' && head !== 'GIF89a') return null
  let width = u16le(b, 6)
  let height = u16le(b, 8)
  const colourTable = (packed: number) => (packed & 0x80 ? 3 * (2 << (packed & 7)) : 0)
  // Past a run of data sub-blocks (a length byte, that many bytes), ended by a zero length.
  const subBlocks = (from: number) => {
    let at = from
    while (at < b.length) {
      if (b[at] === 0) return at + 1
      at += 1 + b[at]
    }
    return -1
  }
  let at = 13 + colourTable(b[10])
  while (at >= 0 && at < b.length) {
    const block = b[at]
    if (block === 0x3b) return { type: 'image/gif', width, height }
    if (block === 0x21) { // extension: label, then sub-blocks
      at = subBlocks(at + 2)
    } else if (block === 0x2c) { // image descriptor: left, top, width, height, packed
      if (at + 10 > b.length) return null
      width = Math.max(width, u16le(b, at + 1) + u16le(b, at + 5))
      height = Math.max(height, u16le(b, at + 3) + u16le(b, at + 7))
      // The local colour table, the LZW minimum code size, then the image data.
      at = subBlocks(at + 10 + colourTable(b[at + 9]) + 1)
    } else {
      return null
    }
  }
  return null
}

// JPEG: SOI, then marker segments up to a start-of-frame (SOF0–SOF15 but DHT, JPG and DAC), whose
// data is precision, height, width (uint16 big-endian). Reaching the scan first is no image.
function jpeg(b: Uint8Array): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null
  let at = 2
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1]
    if (marker === 0xff) { at++; continue } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue } // no length
    if (marker === 0xd9 || marker === 0xda) return null // end of image, start of scan
    const length = u16be(b, at + 2)
    if (length < 2) return null
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isFrame) {
      if (at + 9 > b.length) return null
      return { type: 'image/jpeg', width: u16be(b, at + 7), height: u16be(b, at + 5) }
    }
    at += 2 + length
  }
  return null
}

// WebP: a RIFF container of type WEBP whose first chunk says the size: "VP8 " (lossy: start code
// 9d 01 2a, then 14-bit width and height), "VP8L" (lossless: signature 0x2f, then width-1 and
// height-1 in 14 bits each) or "VP8X" (extended, animations too: canvas width-1 and height-1 in
// 24 bits each).
function webp(b: Uint8Array): ImageInfo | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null
  const chunk = ascii(b, 12, 4)
  const d = 20
  if (chunk === 'VP8 ') {
    if (b[d + 3] !== 0x9d || b[d + 4] !== 0x01 || b[d + 5] !== 0x2a) return null
    return { type: 'image/webp', width: u16le(b, d + 6) & 0x3fff, height: u16le(b, d + 8) & 0x3fff }
  }
  if (chunk === 'VP8L') {
    if (b[d] !== 0x2f) return null
    const bits = (b[d + 1] | (b[d + 2] << 8) | (b[d + 3] << 16) | (b[d + 4] << 24)) >>> 0
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8X') return { type: 'image/webp', width: u24le(b, d + 4) + 1, height: u24le(b, d + 7) + 1 }
  return null
}

export function readImageInfo(bytes: Uint8Array): ImageInfo | null {
  return png(bytes) ?? gif(bytes) ?? jpeg(bytes) ?? webp(bytes)
}
