// Opaque identifiers: UUIDv7, so rows created later sort later, with no meaning a client may rely on.
export const newId = (): string => Bun.randomUUIDv7()

// Random secrets (API keys, webhook secrets, tokens): base64url of `bytes` CSPRNG bytes.
export function randomSecret(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')
}

// The one-shot form: a third of the time of a CryptoHasher, and it runs on every keyed request.
export function sha256Hex(data: string | Uint8Array): string {
  return Bun.SHA256.hash(data, 'hex')
}

// Random bytes (ping tokens), from the same CSPRNG.
export const randomBytes = (bytes: number): Buffer => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes)))

// HMAC-SHA256 of `data` (UTF-8 when a string) under `key`. Bun's native hasher rather than
// node:crypto: that module alone took 9-10 ms of every start, and nothing else needs it.
export const hmacSha256 = (key: string | Uint8Array, data: string | Uint8Array): Buffer =>
  new Bun.CryptoHasher('sha256', key).update(data).digest() as Buffer
