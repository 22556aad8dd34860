import { invalidParameter } from '../http/errors.ts'
import type { Banner } from '../servers/repo.ts'
import { imageHash } from './icon.ts'
import { readImageInfo, TYPE_NAMES, type ImageType } from './image-info.ts'

// The owner's banner: the 468×60 format of server lists, as PNG, GIF (animated too), JPEG or
// WebP, at most 1 MiB. Its type and size are read from its bytes; the Content-Type it was sent
// with only has to say it is an image.
export const BANNER_WIDTH = 468
export const BANNER_HEIGHT = 60
export const BANNER_MAX_BYTES = 1024 * 1024
// The upload route reads bodies up to this size, so that an image a little too large gets the
// 400 that says so rather than a bare 413 (past it, the request is 413 unread).
export const BANNER_BODY_CAP = 4 * 1024 * 1024

const FIELD = 'banner'
export const BANNER_TYPES: readonly string[] = ['image/png', 'image/gif', 'image/jpeg', 'image/webp']
const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`

export function checkBanner(bytes: Uint8Array, contentType: string | null): Banner {
  const declared = (contentType ?? '').split(';')[0].trim().toLowerCase()
  if (!BANNER_TYPES.includes(declared) && declared !== 'application/octet-stream') {
    throw invalidParameter(`banner must be sent as the raw body with Content-Type image/png, image/gif, image/jpeg or image/webp${declared ? ` (not ${declared})` : ''}`, FIELD)
  }
  if (bytes.length === 0) throw invalidParameter('banner: the body is empty; send the image itself', FIELD)
  if (bytes.length > BANNER_MAX_BYTES) {
    throw invalidParameter(`banner must be at most 1 MiB (${BANNER_MAX_BYTES.toLocaleString('en-US')} bytes); this file is ${mib(bytes.length)}`, FIELD)
  }
  const info = readImageInfo(bytes)
  if (!info) throw invalidParameter(`banner must be a PNG, GIF, JPEG or WebP image; the file sent${declared ? ` as ${declared}` : ''} is none of them`, FIELD)
  if (info.width !== BANNER_WIDTH || info.height !== BANNER_HEIGHT) {
    throw invalidParameter(`banner must be ${BANNER_WIDTH}×${BANNER_HEIGHT} pixels; this ${TYPE_NAMES[info.type as ImageType]} is ${info.width}×${info.height}`, FIELD)
  }
  return { bytes, type: info.type, width: info.width, height: info.height, hash: imageHash(bytes) }
}
