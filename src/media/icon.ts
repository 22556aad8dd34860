import { sha256Hex } from '../ids.ts'
import { readImageInfo } from './image-info.ts'

// The server icon: the favicon a Java server sends in its status answer, as the game itself
// accepts it — a base64 `data:image/png` URL of a PNG of at most 64×64 pixels. The game draws
// 64×64 icons; real ones weigh 1–12 KiB, so 32 KiB bounds what the site keeps per server.
export const ICON_MAX_BYTES = 32 * 1024
export const ICON_MAX_SIZE = 64

export interface Icon {
  png: Uint8Array
  hash: string // SHA-256 of png, hex
}

export const imageHash = (bytes: Uint8Array) => sha256Hex(bytes)

const PREFIX = /^data:image\/png;base64,/i
// Servers of the 1.7 era wrapped the base64 text in lines; whitespace is not part of it.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

// The icon a favicon carries, or null when it is absent or anything but a PNG of at most 64×64
// pixels and ICON_MAX_BYTES (checked from the image's own IHDR header, not from the URL).
export function iconFromFavicon(favicon: string | null): Icon | null {
  if (!favicon || !PREFIX.test(favicon)) return null
  const text = favicon.replace(PREFIX, '').replace(/\s+/g, '')
  if (!BASE64.test(text) || text.length > Math.ceil(ICON_MAX_BYTES / 3) * 4) return null
  const png = Buffer.from(text, 'base64')
  if (png.length > ICON_MAX_BYTES) return null
  const info = readImageInfo(png)
  if (!info || info.type !== 'image/png') return null
  if (info.width < 1 || info.height < 1 || info.width > ICON_MAX_SIZE || info.height > ICON_MAX_SIZE) return null
  return { png: new Uint8Array(png), hash: imageHash(png) }
}
