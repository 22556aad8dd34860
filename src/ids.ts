// Opaque identifiers: UUIDv7, so rows created later sort later, with no meaning a client may rely on.
export const newId = (): string => Bun.randomUUIDv7()

// Random secrets (API keys, webhook secrets, tokens): base64url of `bytes` CSPRNG bytes.
export function randomSecret(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url')
}

// The one-shot form: a third of the time of a CryptoHasher, and it runs on every keyed request.
export function sha256Hex(text: string): string {
  return Bun.SHA256.hash(text, 'hex')
}
