import type { ListingPolicy } from './repo.ts'

// THE rule of "on the public site" (the ranking, a server's pages and vote page, the public API,
// the ping rounds), as SQL over the server row named `s`: NULL when the server is listed, else
// why not. Every query that shows servers to the public uses it, and nothing else decides. The
// same text runs on SQLite and PostgreSQL ("user" quoted, a reserved word there; `claim` is a
// generated column on both), so the two backends cannot disagree on it.
// - hidden by an administrator (or deleted, its rows being removed: src/servers/purge-sql.ts);
// - disabled: its owner's account is disabled by an administrator;
// - claimed: another account's listing of the same address (server.claim) is verified, so this
//   one, unverified, is off the site whatever the policy (a verified listing keeps its address);
// - unverified, when the site requires proof of ownership.
export function unlistedReasonSql(s: string, policy: ListingPolicy): string {
  return `CASE
    WHEN ${s}.hidden <> 0 OR ${s}.deleted_at IS NOT NULL THEN 'hidden'
    WHEN EXISTS (SELECT 1 FROM "user" o WHERE o.id = ${s}.owner_id AND o.disabled_at IS NOT NULL) THEN 'disabled'
    WHEN ${s}.verified_at IS NOT NULL THEN NULL
    WHEN EXISTS (SELECT 1 FROM server rival WHERE rival.claim = ${s}.claim AND rival.verified_at IS NOT NULL
                 AND rival.deleted_at IS NULL AND rival.owner_id <> ${s}.owner_id) THEN 'claimed'
    ${policy.requireVerification ? `ELSE 'unverified'` : ''}
  END`
}

export const listedSql = (s: string, policy: ListingPolicy) => `(${unlistedReasonSql(s, policy)}) IS NULL`
