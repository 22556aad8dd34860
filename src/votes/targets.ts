import { use, type TxScript } from '../db/store.ts'
import type { ServersRepo, VoteTarget } from '../servers/repo.ts'
import { listedTarget } from '../servers/service.ts'

// The vote path's lookup of its server, without a read of its own for every vote. On SQLite a
// read outside a transaction takes and drops the WAL's locks (a few system calls): it was a tenth
// of a vote's cost under load. So the listed servers found are remembered with the listing
// version they were read at (migrations/0093_listing_version.sql: bumped by every change to a
// server, its owner's account or a rival's verification, whoever makes it), and the vote's own
// transaction reads that version again, reading the server again only when it has moved. A
// server hidden, disabled or renamed a moment ago is seen as it is now by the vote that is
// recorded; the checks made before the transaction (the 404, the name's rules of its edition)
// read the server again whenever they would refuse with a remembered one.
// Servers not listed are never remembered: they are read every time.

export interface FoundTarget {
  target: VoteTarget
  // The listing version the target was read at.
  version: number
  // Read from what was remembered rather than from the database just now.
  remembered: boolean
}

export type TargetTx = { servers: Pick<ServersRepo, 'voteTarget' | 'listingVersion'> }

// More distinct slugs than a list has servers only come from servers deleted or renamed.
const MAX_REMEMBERED = 10_000

export type VoteTargets = ReturnType<typeof voteTargets>

// Inside the vote's transaction, first: the server as it is now, refusing (before anything is
// written) a server no longer listed. `reread`: its listing had moved, so it was read again (the
// vote path remembers it, with `version`, once the vote is written).
export function* confirmTarget(tx: TargetTx, found: { target: VoteTarget; version: number }): TxScript<{ target: VoteTarget; version: number; reread: boolean }> {
  const now = Number(yield* use(tx.servers.listingVersion()))
  if (now === found.version) return { target: found.target, version: now, reread: false }
  const current = yield* use(tx.servers.voteTarget(found.target.slug))
  return { target: listedTarget(found.target.slug, current), version: Number(current!.version), reread: true }
}

export function voteTargets(servers: Pick<ServersRepo, 'voteTarget'>) {
  let version: number | null = null
  const listed = new Map<string, VoteTarget>()

  const remember = (target: VoteTarget, at: number) => {
    if (at !== version) {
      listed.clear()
      version = at
    }
    if (listed.size >= MAX_REMEMBERED) listed.clear()
    listed.set(target.slug, target)
  }

  const read = async (slug: string): Promise<FoundTarget> => {
    const found = await servers.voteTarget(slug)
    const target = listedTarget(slug, found)
    const at = Number(found!.version)
    remember(target, at)
    return { target, version: at, remembered: false }
  }

  return {
    // The listed server named by `slug` (a 404 ApiError when none is). `fresh`: read it now.
    find(slug: string, fresh = false): Promise<FoundTarget> {
      const target = fresh ? undefined : listed.get(slug)
      return target ? Promise.resolve({ target, version: version!, remembered: true }) : read(slug)
    },
    // What the vote's transaction found (confirmTarget), remembered.
    remember,
  }
}
