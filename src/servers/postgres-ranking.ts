import { row, rows, type Pg } from '../db/postgres-client.ts'
import { monthEnd } from './month.ts'
import { listedSql } from './listed.ts'
import { searchMatches, type ListingPolicy, type RankedServer, type RankingFilter, type RankingRepo } from './repo.ts'

// The ranking of src/servers/sqlite-ranking.ts, in PostgreSQL, among the servers the listing rule
// shows. $1 month, $2 its end.
const ranked = (policy: ListingPolicy) => `WITH ranked AS (
  SELECT s.num, s.id, s.slug, s.name, s.edition, s.verified_at IS NOT NULL AS verified, coalesce(m.votes, 0) AS votes,
         row_number() OVER (ORDER BY coalesce(m.votes, 0) DESC, m.last_vote_at ASC NULLS LAST, s.created_at, s.num) AS rank
    FROM server s LEFT JOIN server_month m ON m.server_id = s.id AND m.month = $1
   WHERE ${listedSql('s', policy)} AND s.created_at < $2)`

// $3 edition, $4 mode, $5 the ids of the servers whose names match the search (searchMatches).
const filtered = (policy: ListingPolicy) => `${ranked(policy)}
  SELECT rank, id, slug, name, votes, verified FROM ranked r
   WHERE ($3::text IS NULL OR r.edition = $3)
     AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM server_mode sm WHERE sm.server_id = r.id AND sm.mode = $4))
     AND ($5::text IS NULL OR r.id IN (SELECT jsonb_array_elements_text($5::text::jsonb)))`

export function postgresRankingRepo(pg: Pg, policy: ListingPolicy) {
  const FILTERED = filtered(policy)
  // The total rides along with the page; only a page past the end needs the separate count.
  const PAGE = `SELECT *, count(*) OVER () AS total FROM (${FILTERED}) f ORDER BY rank LIMIT $6 OFFSET $7`
  const COUNT = `SELECT count(*) AS n FROM (${FILTERED}) f`
  const ONE = `${ranked(policy)} SELECT rank, id, slug, name, votes, verified FROM ranked WHERE id = $3`

  const filterParams = async (month: string, f: RankingFilter) => [
    month, monthEnd(month), f.edition ?? null, f.mode ?? null,
    f.search?.trim() ? searchMatches(f, await rows<{ id: string; name: string }>(pg, 'SELECT id, name FROM server')) : null,
  ]

  return {
    async page(month, filter, limit, offset) {
      const params = await filterParams(month, filter)
      const found = await rows<RankedServer & { total: number }>(pg, PAGE, [...params, limit, offset])
      return {
        total: found.length ? found[0].total : (await row<{ n: number }>(pg, COUNT, params))!.n,
        rows: found.map(({ total: _, ...r }) => r as RankedServer),
      }
    },
    rankOf: (serverId, month) => row<RankedServer>(pg, ONE, [month, monthEnd(month), serverId]),
    topVoters: (serverId, month, limit) => rows<{ pseudo: string; votes: number }>(pg,
      'SELECT pseudo, votes FROM voter_month WHERE server_id = $1 AND month = $2 ORDER BY votes DESC, last_vote_at ASC LIMIT $3', [serverId, month, limit]),
    totalVotes: async (serverId) => (await row<{ n: number }>(pg, 'SELECT coalesce(sum(votes), 0) AS n FROM server_month WHERE server_id = $1', [serverId]))!.n,
    monthVotes: async (serverId, month) => (await row<{ votes: number }>(pg, 'SELECT votes FROM server_month WHERE server_id = $1 AND month = $2', [serverId, month]))?.votes ?? 0,
  } satisfies RankingRepo
}
