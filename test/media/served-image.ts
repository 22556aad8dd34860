import { expect } from 'bun:test'
import { call } from '../helpers.ts'

// An image address as the public record and the pages give it (with its `?v=`): served with
// its own type, cacheable for good, byte for byte what was kept. Returns its ETag.
export async function expectServedImage(app: { handle(request: Request): Promise<Response> }, url: string, bytes: Uint8Array, type: string): Promise<string> {
  const res = await call(app, 'GET', new URL(url).pathname + new URL(url).search)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe(type)
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
  const etag = res.headers.get('etag')!
  expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
  return etag
}
