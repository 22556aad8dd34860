import type { Database } from 'bun:sqlite'
import type { ChannelsRepo, DiscordSettings, VotifierSettings, WebhookSettings } from './repo.ts'
import type { Channel } from './schema.ts'

export function sqliteChannelsRepo(db: Database) {
  const configured = db.prepare(`SELECT 'votifier' AS channel FROM votifier WHERE server_id = ?1
    UNION ALL SELECT 'webhook' FROM webhook WHERE server_id = ?1
    UNION ALL SELECT 'discord' FROM discord WHERE server_id = ?1`)
  const getWebhook = db.prepare('SELECT server_id AS serverId, url, secret, created_at AS createdAt, updated_at AS updatedAt FROM webhook WHERE server_id = ?')
  const putWebhook = db.prepare(`INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
    ON CONFLICT (server_id) DO UPDATE SET url = ?2, secret = CASE WHEN ?5 = 1 THEN secret ELSE ?3 END, updated_at = ?4`)
  const deleteWebhook = db.prepare('DELETE FROM webhook WHERE server_id = ?')
  const getVotifier = db.prepare(`SELECT server_id AS serverId, host, port, protocol, public_key AS publicKey, token,
    created_at AS createdAt, updated_at AS updatedAt FROM votifier WHERE server_id = ?`)
  const putVotifier = db.prepare(`INSERT INTO votifier (server_id, host, port, protocol, public_key, token, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
    ON CONFLICT (server_id) DO UPDATE SET host = ?2, port = ?3, protocol = ?4, public_key = ?5, token = ?6, updated_at = ?7`)
  const deleteVotifier = db.prepare('DELETE FROM votifier WHERE server_id = ?')
  const getDiscord = db.prepare('SELECT server_id AS serverId, url, created_at AS createdAt, updated_at AS updatedAt FROM discord WHERE server_id = ?')
  const putDiscord = db.prepare(`INSERT INTO discord (server_id, url, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
    ON CONFLICT (server_id) DO UPDATE SET url = ?2, updated_at = ?3`)
  const deleteDiscord = db.prepare('DELETE FROM discord WHERE server_id = ?')
  return {
    configured: (serverId) => (configured.all(serverId) as { channel: Channel }[]).map((r) => r.channel),
    webhook: (serverId) => getWebhook.get(serverId) as WebhookSettings | null,
    putWebhook: (serverId, url, secret, at, keepSecret = false) => { putWebhook.run(serverId, url, secret, at, keepSecret ? 1 : 0) },
    deleteWebhook: (serverId) => deleteWebhook.run(serverId).changes > 0,
    votifier: (serverId) => getVotifier.get(serverId) as VotifierSettings | null,
    putVotifier(s, at) {
      putVotifier.run(s.serverId, s.host, s.port, s.protocol, s.publicKey, s.token, at)
    },
    deleteVotifier: (serverId) => deleteVotifier.run(serverId).changes > 0,
    discord: (serverId) => getDiscord.get(serverId) as DiscordSettings | null,
    putDiscord: (serverId, url, at) => { putDiscord.run(serverId, url, at) },
    deleteDiscord: (serverId) => deleteDiscord.run(serverId).changes > 0,
  } satisfies ChannelsRepo
}
