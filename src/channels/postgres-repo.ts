import { exec, row, rows, type Pg } from '../db/postgres-client.ts'
import type { ChannelsRepo, DiscordSettings, VotifierSettings, WebhookSettings } from './repo.ts'
import type { Channel } from './schema.ts'

export function postgresChannelsRepo(pg: Pg) {
  return {
    configured: async (serverId) => (await rows<{ channel: Channel }>(pg, `SELECT 'votifier' AS channel FROM votifier WHERE server_id = $1
      UNION ALL SELECT 'webhook' FROM webhook WHERE server_id = $1
      UNION ALL SELECT 'discord' FROM discord WHERE server_id = $1`, [serverId])).map((r) => r.channel),
    webhook: (serverId) => row<WebhookSettings>(pg,
      'SELECT server_id AS "serverId", url, secret, created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook WHERE server_id = $1', [serverId]),
    // With keepSecret, a second first save waits for the first one's insert, then keeps its secret.
    async putWebhook(serverId, url, secret, at, keepSecret = false) {
      await exec(pg, `INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
        ON CONFLICT (server_id) DO UPDATE SET url = excluded.url,
          secret = CASE WHEN $5::int = 1 THEN webhook.secret ELSE excluded.secret END, updated_at = excluded.updated_at`,
      [serverId, url, secret, at, keepSecret ? 1 : 0])
    },
    deleteWebhook: async (serverId) => (await exec(pg, 'DELETE FROM webhook WHERE server_id = $1', [serverId])) > 0,
    votifier: (serverId) => row<VotifierSettings>(pg, `SELECT server_id AS "serverId", host, port, protocol, public_key AS "publicKey", token,
      created_at AS "createdAt", updated_at AS "updatedAt" FROM votifier WHERE server_id = $1`, [serverId]),
    async putVotifier(s, at) {
      await exec(pg, `INSERT INTO votifier (server_id, host, port, protocol, public_key, token, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
        ON CONFLICT (server_id) DO UPDATE SET host = excluded.host, port = excluded.port, protocol = excluded.protocol,
          public_key = excluded.public_key, token = excluded.token, updated_at = excluded.updated_at`,
      [s.serverId, s.host, s.port, s.protocol, s.publicKey, s.token, at])
    },
    deleteVotifier: async (serverId) => (await exec(pg, 'DELETE FROM votifier WHERE server_id = $1', [serverId])) > 0,
    discord: (serverId) => row<DiscordSettings>(pg,
      'SELECT server_id AS "serverId", url, created_at AS "createdAt", updated_at AS "updatedAt" FROM discord WHERE server_id = $1', [serverId]),
    async putDiscord(serverId, url, at) {
      await exec(pg, `INSERT INTO discord (server_id, url, created_at, updated_at) VALUES ($1, $2, $3, $3)
        ON CONFLICT (server_id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`, [serverId, url, at])
    },
    deleteDiscord: async (serverId) => (await exec(pg, 'DELETE FROM discord WHERE server_id = $1', [serverId])) > 0,
  } satisfies ChannelsRepo
}
