import { describe, expect, test } from 'bun:test'
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { parseVotifierPublicKey, votifierEncrypter } from '../../src/push/public-key.ts'

const pair = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits })
const { publicKey, privateKey } = pair(2048)
const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64')

// Textbook RSA (m = c^d mod n) with BigInt: an independent check of the padding the encrypter
// produced (Bun, like Node, refuses PKCS#1 v1.5 private decryption).
function rawDecrypt(key: KeyObject, block: Buffer): Buffer {
  const jwk = key.export({ format: 'jwk' })
  const big = (b64: string) => BigInt('0x' + Buffer.from(b64, 'base64url').toString('hex'))
  const [n, d] = [big(jwk.n!), big(jwk.d!)]
  let [base, exp, m] = [BigInt('0x' + block.toString('hex')) % n, d, 1n]
  while (exp > 0n) {
    if (exp & 1n) m = (m * base) % n
    base = (base * base) % n
    exp >>= 1n
  }
  return Buffer.from(m.toString(16).padStart(512, '0'), 'hex')
}

describe('Votifier v1 public keys', () => {
  test('accepts NuVotifier\'s rsa/public.key (base64 X.509, with line breaks) and PEM; stores base64 DER', () => {
    expect(parseVotifierPublicKey(der)).toBe(der)
    expect(parseVotifierPublicKey(der.replace(/(.{64})/g, '$1\n'))).toBe(der)
    expect(parseVotifierPublicKey(publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBe(der)
    expect(parseVotifierPublicKey(publicKey.export({ type: 'pkcs1', format: 'pem' }).toString())).toBe(der)
  })

  test('refuses other sizes, garbage and private keys with a clear message', () => {
    const small = pair(1024).publicKey.export({ type: 'spki', format: 'der' }).toString('base64')
    expect(() => parseVotifierPublicKey(small)).toThrow('2048-bit RSA key (this one has 1024 bits)')
    expect(() => parseVotifierPublicKey('not a key at all')).toThrow('publicKey must be the contents')
    expect(() => parseVotifierPublicKey('AAAA')).toThrow('publicKey must be the contents')
    expect(() => parseVotifierPublicKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toThrow()
  })

  test('the encrypter uses PKCS#1 v1.5 and yields exactly 256 bytes', () => {
    const block = votifierEncrypter(der)(Buffer.from('VOTE\nList\nSteve\n1.2.3.4\n1\n'))
    expect(block.length).toBe(256)
    const plain = rawDecrypt(privateKey, block)
    // PKCS#1 v1.5 encryption padding: 00 02, at least 8 non-zero random bytes, 00, message.
    expect([plain[0], plain[1]]).toEqual([0, 2])
    const sep = plain.indexOf(0, 2)
    expect(sep).toBeGreaterThanOrEqual(10)
    expect(plain.subarray(2, sep).every((b) => b !== 0)).toBe(true)
    expect(plain.subarray(sep + 1).toString()).toBe('VOTE\nList\nSteve\n1.2.3.4\n1\n')
  })
})
