import type { Database } from 'bun:sqlite'
import { monthEnd } from './month.ts'
import { searchMatches, type ListingPolicy, type RankedServer, type RankingFilter, type RankingRepo } from './repo.ts'
import { listedSql } from './listed.ts'

const ranked = (policy: ListingPolicy) => `WITH ranked AS (
  SELECT s.num, s.id, s.slug, s.name, s.edition, s.verified_at IS NOT NULL AS verified, coalesce(m.votes, 0) AS votes,
         row_number() OVER (ORDER BY coalesce(m.votes, 0) DESC, m.last_vote_at ASC NULLS LAST, s.created_at, s.num) AS rank
    FROM server s LEFT JOIN server_month m ON m.server_id = s.id AND m.month = $month
   WHERE ${listedSql('s', policy)} AND s.created_at < $end)`

const filtered = (policy: ListingPolicy) => `${ranked(policy)}
  SELECT rank, id, slug, name, votes, verified FROM ranked r
   WHERE ($edition IS NULL OR r.edition = $edition)
     AND ($mode IS NULL OR EXISTS (SELECT 1 FROM server_mode sm WHERE sm.server_id = r.id AND sm.mode = $mode))
     AND ($search IS NULL OR r.id IN (SELECT value FROM json_each($search)))`

type Row = Omit<RankedServer, 'verified'> & { verified: number }
const toRanked = ({ verified, ...r }: Row): RankedServer => ({ ...r, verified: verified === 1 })

export function sqliteRankingRepo(db: Database, policy: ListingPolicy) {
  const FILTERED = filtered(policy)
  // The total rides along with the page (one evaluation of the ranking instead of two); only a
  // page past the end needs the separate count.
  const page = db.prepare(`SELECT *, count(*) OVER () AS total FROM (${FILTERED}) ORDER BY rank LIMIT $limit OFFSET $offset`)
  const count = db.prepare(`SELECT count(*) AS n FROM (${FILTERED})`)
  const one = db.prepare(`${ranked(policy)} SELECT rank, id, slug, name, votes, verified FROM ranked WHERE id = $id`)
  const top = db.prepare(`SELECT pseudo, votes FROM voter_month WHERE server_id = ? AND month = ?
    ORDER BY votes DESC, last_vote_at ASC LIMIT ?`)
  const total = db.prepare('SELECT coalesce(sum(votes), 0) AS n FROM server_month WHERE server_id = ?')
  const monthVotes = db.prepare('SELECT votes FROM server_month WHERE server_id = ? AND month = ?')
  const names = db.prepare('SELECT id, name FROM server')

  const filterParams = (month: string, f: RankingFilter) => ({
    month, end: monthEnd(month), edition: f.edition ?? null, mode: f.mode ?? null,
    search: f.search?.trim() ? searchMatches(f, names.all() as { id: string; name: string }[]) : null,
  })

  return {
    page(month, filter, limit, offset) {
      const params = filterParams(month, filter)
      const found = page.all({ ...params, limit, offset }) as (Row & { total: number })[]
      return {
        total: found.length ? found[0].total : (count.get(params) as { n: number }).n,
        rows: found.map(({ total: _, ...row }) => toRanked(row)),
      }
    },
    rankOf(serverId, month) {
      const row = one.get({ month, end: monthEnd(month), id: serverId }) as Row | null
      return row && toRanked(row)
    },
    topVoters: (serverId, month, limit) => top.all(serverId, month, limit) as { pseudo: string; votes: number }[],
    totalVotes: (serverId) => (total.get(serverId) as { n: number }).n,
    monthVotes: (serverId, month) => (monthVotes.get(serverId, month) as { votes: number } | null)?.votes ?? 0,
  } satisfies RankingRepo
}
