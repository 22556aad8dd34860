// The message a vote posts to a Discord webhook (Discord's "Execute Webhook" JSON body): one embed
// with the player, the server and its votes this month. Names are escaped for Discord's markdown
// and `allowed_mentions` parses nothing, so a player or server name can neither format the
// message nor ping anyone (@everyone, a user, a role).

export interface DiscordVote {
  pseudo: string
  server: { name: string; url: string }
  monthlyVotes: number
  votedAt: number
  test: boolean
  siteName: string
}

// Every character Discord's markdown gives a meaning to (emphasis, code, spoilers, quotes,
// headings, lists, masked links, mentions and custom emoji) gets a backslash, which Discord
// removes when it shows the text (it escapes any character that is not a letter, a digit or a
// space).
export const escapeMarkdown = (text: string) => text.replace(/[\\*_~`|<>#\-[\]()@]/g, '\\$&')

// Discord cuts nothing: an embed field over its limit refuses the whole message (400).
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

const ACCENT = 0x1f6f43 // the site's accent colour

export function discordMessage(v: DiscordVote): string {
  const server = escapeMarkdown(v.server.name)
  const player = escapeMarkdown(v.pseudo)
  return JSON.stringify({
    allowed_mentions: { parse: [] },
    embeds: [{
      title: cut(`${v.test ? 'Test vote' : 'New vote'} for ${server}`, 256),
      url: v.server.url,
      description: v.test
        ? `A test from the ${escapeMarkdown(v.siteName)} dashboard for **${player}**: not a vote, nobody is rewarded.`
        : `**${player}** voted for **${server}**.`,
      color: ACCENT,
      fields: [
        { name: 'Player', value: cut(player, 1024), inline: true },
        { name: 'Votes this month', value: v.monthlyVotes.toLocaleString('en-US'), inline: true },
      ],
      footer: { text: cut(v.siteName, 2048) },
      timestamp: new Date(v.votedAt).toISOString(),
    }],
  })
}
