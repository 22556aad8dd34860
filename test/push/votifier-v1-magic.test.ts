import { afterEach, expect, mock, test } from 'bun:test'
import * as publicKey from '../../src/push/public-key.ts'
import type { VotifierVote } from '../../src/push/votifier-connection.ts'
import { startVotifierReceiver, votifierKeyPair, type VotifierReceiver } from './votifier-receiver.ts'

// PKCS#1 v1.5 padding is random, so one v1 block in 65,536 begins with the bytes 0x73 0x3A,
// NuVotifier's v2 magic. The encrypter is wrapped so that its first block is such an unlucky one
// (the first draw of the padding), and the blocks after it are the real encrypter's.
const realEncrypter = publicKey.votifierEncrypter
let unluckyDraws = 0
mock.module('../../src/push/public-key.ts', () => ({
  ...publicKey,
  votifierEncrypter: (key: string) => {
    const encrypt = realEncrypter(key)
    return (plain: Buffer) => {
      const block = encrypt(plain)
      if (unluckyDraws > 0) {
        unluckyDraws--
        block[0] = 0x73
        block[1] = 0x3a
      }
      return block
    }
  },
}))
const { sendVotifierV1 } = await import('../../src/push/votifier-v1.ts')

const keys = votifierKeyPair()
const vote: VotifierVote = { serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7', timestamp: 1795000000123 }
const running: VotifierReceiver[] = []
afterEach(() => { for (const r of running.splice(0)) r.stop() })

test('a v1 block that would begin with the v2 magic 0x733A is encrypted again: NuVotifier would read it as a v2 frame and drop the vote without a word', async () => {
  const r = startVotifierReceiver({ privateKeyPem: keys.privateKeyPem })
  running.push(r)
  unluckyDraws = 1
  await sendVotifierV1({ host: '127.0.0.1', address: '127.0.0.1', port: r.port }, keys.publicKey, vote, { connectMs: 10_000, readMs: 10_000 })
  await Promise.race([r.waitVotes(1), r.waitErrors(1)])
  expect(r.errors).toEqual([])
  expect(r.votes).toEqual([{ protocol: 'v1', serviceName: 'MyServerList', username: 'Steve', address: '203.0.113.7', timestamp: '1795000000123' }])
})
