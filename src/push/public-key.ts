import type NodeRSA from 'node-rsa'
import { invalidParameter } from '../http/errors.ts'

// node-rsa is required when a Votifier v1 key is first read or used, not at start: most sites
// never use v1, and the library is some 110 KB of code to evaluate. (require, not import(): the
// callers are synchronous.)
let rsa: typeof NodeRSA | undefined
const loadNodeRsa = () => (rsa ??= (require('node-rsa') as typeof import('node-rsa')).default)

// NuVotifier writes rsa/public.key as base64 of the X.509 SubjectPublicKeyInfo, no PEM armour;
// owners may also paste a PEM block. NuVotifier reads exactly 256 bytes per block, so only
// 2048-bit keys work. Returns the key normalised to base64 DER, as stored.
export function parseVotifierPublicKey(text: string): string {
  const trimmed = text.trim()
  const key = new (loadNodeRsa())()
  try {
    if (trimmed.startsWith('-----BEGIN RSA PUBLIC KEY-----')) key.importKey(trimmed, 'pkcs1-public-pem')
    else if (trimmed.startsWith('-----BEGIN')) key.importKey(trimmed, 'pkcs8-public-pem')
    else {
      const b64 = trimmed.replace(/\s+/g, '')
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('not base64')
      key.importKey(Buffer.from(b64, 'base64'), 'pkcs8-public-der')
    }
  } catch {
    throw invalidParameter('publicKey must be the contents of the listener\'s rsa/public.key (base64 X.509) or a PEM public key', 'publicKey')
  }
  if (!key.isPublic(true)) throw invalidParameter('publicKey must be a public key, not a private one', 'publicKey')
  const bits = key.getKeySize()
  if (bits !== 2048) throw invalidParameter(`publicKey must be a 2048-bit RSA key (this one has ${bits} bits): Votifier reads exactly 256 bytes`, 'publicKey')
  return Buffer.from(key.exportKey('pkcs8-public-der')).toString('base64')
}

// Encrypts one Votifier v1 block with the stored key: PKCS#1 v1.5 padding (node-rsa defaults to
// OAEP), 256 bytes out for a 2048-bit key.
export function votifierEncrypter(storedKey: string): (plain: Buffer) => Buffer {
  const key = new (loadNodeRsa())(Buffer.from(storedKey, 'base64'), 'pkcs8-public-der', { encryptionScheme: 'pkcs1' })
  return (plain) => Buffer.from(key.encrypt(plain))
}
