import { DeliveryFailure } from '../net/guard.ts'
import { votifierEncrypter } from './public-key.ts'
import { openVotifierConnection, type VotifierTarget, type VotifierTimeouts, type VotifierVote } from './votifier-connection.ts'

// NuVotifier reads exactly 256 bytes (one RSA-2048 block); PKCS#1 v1.5 padding takes 11 of them.
const BLOCK_BYTES = 256
const MAX_PLAIN_BYTES = BLOCK_BYTES - 11
// Encryptions of one vote at most, to get a block that does not begin with the v2 magic: each
// draw begins with it with a chance of 2^-16.
const MAX_DRAWS = 8
const beginsWithV2Magic = (block: Buffer) => block[0] === 0x73 && block[1] === 0x3a

// The v1 block, encrypted before connecting: a key Votifier cannot use fails without a connection.
export function encryptVotifierV1Block(publicKey: string, vote: VotifierVote): Buffer {
  const plain = Buffer.from(`VOTE\n${vote.serviceName}\n${vote.username}\n${vote.address}\n${vote.timestamp}\n`, 'utf8')
  if (plain.length > MAX_PLAIN_BYTES) {
    throw new DeliveryFailure(`the v1 vote is ${plain.length} bytes, more than the ${MAX_PLAIN_BYTES} one RSA block holds`)
  }
  let block: Buffer
  try {
    const encrypt = votifierEncrypter(publicKey)
    block = encrypt(plain)
    // NuVotifier reads a connection whose first two bytes are 0x733A as a v2 frame: a v1 block
    // that begins with them (one in 65,536) would be refused as a v2 vote, and v1 has no answer
    // to tell us. The padding is random, so encrypting again gives another block.
    for (let draws = 1; beginsWithV2Magic(block) && draws < MAX_DRAWS; draws++) block = encrypt(plain)
  } catch {
    throw new DeliveryFailure('bad key: the stored Votifier public key cannot be read; paste the listener\'s rsa/public.key again')
  }
  if (beginsWithV2Magic(block)) throw new DeliveryFailure(`the v1 block began with the v2 magic 0x733A ${MAX_DRAWS} times: the encryption is not random`)
  if (block.length !== BLOCK_BYTES) {
    throw new DeliveryFailure(`bad key: the stored public key is ${block.length * 8}-bit; Votifier needs the listener's 2048-bit rsa/public.key`)
  }
  return block
}

// Votifier v1: the listener greets with "VOTIFIER <version>", we send one encrypted block, and it
// closes without a reply. v1 has no acknowledgement: a wrong key is only visible in the
// listener's own log.
export async function sendVotifierV1(target: VotifierTarget, publicKey: string, vote: VotifierVote, timeouts: VotifierTimeouts): Promise<void> {
  const block = encryptVotifierV1Block(publicKey, vote)
  const conn = await openVotifierConnection(target, timeouts)
  try {
    const greeting = await conn.readLine('greeting', 256)
    if (!greeting.startsWith('VOTIFIER')) {
      throw new DeliveryFailure(`${target.host}:${target.port} is not a Votifier listener: it greeted with "${greeting.slice(0, 60)}"`)
    }
    await conn.write(block)
    await conn.finish()
  } finally {
    conn.close()
  }
}
