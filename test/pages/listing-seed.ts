import type { Server } from '../../src/servers/repo.ts'
import { imageHash } from '../../src/media/icon.ts'
import { motdFromChat, motdText } from '../../src/motd/format.ts'
import { seedServer, type TestRuntime } from '../helpers.ts'
import { png } from '../media/images.ts'

// A ranking as players meet it: servers with icons, banners, coloured MOTDs and long names, some
// without any of them, with votes and a last ping.
export async function seedListing(rt: TestRuntime, count: number): Promise<Server[]> {
  const servers: Server[] = []
  for (let i = 0; i < count; i++) {
    const { server } = await seedServer(rt, {
      name: i % 3 === 2 ? `A server with a rather long name number ${i}` : `Server ${i}`,
      modes: i % 2 ? ['survival', 'skyblock'] : ['pvp'], version: i % 4 ? '1.21.4' : '', edition: i % 5 === 4 ? 'bedrock' : 'java',
    })
    servers.push(server)
    const motd = motdFromChat({ text: `§6Gold §lServer ${i}`, extra: [{ text: ' | ', color: 'dark_gray' }, { text: 'play now\n', color: '#3fa9f5' }, { text: 'Second line', color: 'dark_blue' }] })
    const online = i % 6 !== 5
    rt.db.run(`INSERT INTO server_status (server_num, online, players_online, players_max, motd, motd_styled, last_ping_at) VALUES (?, ?, ?, 100, ?, ?, ?)`,
      [server.num, online ? 1 : 0, online ? 10 + i : 0, motdText(motd), JSON.stringify(motd), rt.clock.now()])
    if (i % 2 === 0) {
      const icon = png(64, 64, [20 * (i % 12), 120, 200])
      rt.db.run('INSERT INTO server_icon (server_num, png, hash, updated_at) VALUES (?, ?, ?, ?)', [server.num, icon, imageHash(icon), rt.clock.now()])
    }
    if (i % 3 === 0) {
      const banner = png(468, 60, [200, 80 + i * 5, 40])
      rt.db.run(`INSERT INTO server_banner (server_num, type, width, height, bytes, hash, updated_at) VALUES (?, 'image/png', 468, 60, ?, ?, ?)`,
        [server.num, banner, imageHash(banner), rt.clock.now()])
    }
    rt.db.run('INSERT INTO server_month (server_id, month, votes, last_vote_at) VALUES (?, ?, ?, ?)',
      [server.id, new Date(rt.clock.now()).toISOString().slice(0, 7), count - i, rt.clock.now()])
  }
  return servers
}
