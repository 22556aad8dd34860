import type { Database } from 'bun:sqlite'

// The owner's notification settings of a server: at most one webhook and one Votifier target.

export interface WebhookSettings {
  serverId: string
  url: string
  secret: string
  createdAt: number
  updatedAt: number
}

// Where a vote's notifications go: the server's Votifier listener, its webhook.
export type Channel = 'votifier' | 'webhook'

export type VotifierProtocol = 'v1' | 'v2'

export interface VotifierSettings {
  serverId: string
  host: string
  port: number
  protocol: VotifierProtocol
  publicKey: string | null // v1: base64 DER SubjectPublicKeyInfo
  token: string | null // v2
  createdAt: number
  updatedAt: number
}

export function channelsRepo(db: Database) {
  const getWebhook = db.prepare('SELECT server_id AS serverId, url, secret, created_at AS createdAt, updated_at AS updatedAt FROM webhook WHERE server_id = ?')
  const putWebhook = db.prepare(`INSERT INTO webhook (server_id, url, secret, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
    ON CONFLICT (server_id) DO UPDATE SET url = ?2, secret = ?3, updated_at = ?4`)
  const deleteWebhook = db.prepare('DELETE FROM webhook WHERE server_id = ?')
  const getVotifier = db.prepare(`SELECT server_id AS serverId, host, port, protocol, public_key AS publicKey, token,
    created_at AS createdAt, updated_at AS updatedAt FROM votifier WHERE server_id = ?`)
  const putVotifier = db.prepare(`INSERT INTO votifier (server_id, host, port, protocol, public_key, token, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
    ON CONFLICT (server_id) DO UPDATE SET host = ?2, port = ?3, protocol = ?4, public_key = ?5, token = ?6, updated_at = ?7`)
  const deleteVotifier = db.prepare('DELETE FROM votifier WHERE server_id = ?')
  const configured = db.prepare(`SELECT 'votifier' AS channel FROM votifier WHERE server_id = ?1
    UNION ALL SELECT 'webhook' FROM webhook WHERE server_id = ?1`)
  return {
    // The channels the owner has configured for this server, in a fixed order.
    configured: (serverId: string) => (configured.all(serverId) as { channel: Channel }[]).map((r) => r.channel),
    webhook: (serverId: string) => getWebhook.get(serverId) as WebhookSettings | null,
    putWebhook: (serverId: string, url: string, secret: string, at: number) => { putWebhook.run(serverId, url, secret, at) },
    deleteWebhook: (serverId: string) => deleteWebhook.run(serverId).changes > 0,
    votifier: (serverId: string) => getVotifier.get(serverId) as VotifierSettings | null,
    putVotifier(s: Omit<VotifierSettings, 'createdAt' | 'updatedAt'>, at: number) {
      putVotifier.run(s.serverId, s.host, s.port, s.protocol, s.publicKey, s.token, at)
    },
    deleteVotifier: (serverId: string) => deleteVotifier.run(serverId).changes > 0,
  }
}
export type ChannelsRepo = ReturnType<typeof channelsRepo>
