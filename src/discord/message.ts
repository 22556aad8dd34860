import { translatorFor } from '../i18n/translate.ts'

// The message a vote posts to a Discord webhook (Discord's "Execute Webhook" JSON body): one embed
// with the player, the server and its votes this month, in the site's language (site.language,
// as the badge: the channel's readers are not the site's visitors). Names are escaped for
// Discord's markdown and `allowed_mentions` parses nothing, so a player or server name can neither
// format the message nor ping anyone (@everyone, a user, a role).

export interface DiscordVote {
  pseudo: string
  server: { name: string; url: string }
  monthlyVotes: number
  votedAt: number
  test: boolean
  siteName: string
  language: string // a language of the site's catalogs
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
  const tr = translatorFor(v.language)
  const server = escapeMarkdown(v.server.name)
  const player = escapeMarkdown(v.pseudo)
  return JSON.stringify({
    allowed_mentions: { parse: [] },
    embeds: [{
      title: cut(tr.t(v.test ? 'discord.testTitle' : 'discord.title', { server }), 256),
      url: v.server.url,
      description: v.test
        ? tr.t('discord.test', { site: escapeMarkdown(v.siteName), player: `**${player}**` })
        : tr.t('discord.voted', { player: `**${player}**`, server: `**${server}**` }),
      color: ACCENT,
      fields: [
        { name: tr.t('discord.player'), value: cut(player, 1024), inline: true },
        { name: tr.t('discord.monthlyVotes'), value: tr.number(v.monthlyVotes), inline: true },
      ],
      footer: { text: cut(v.siteName, 2048) },
      timestamp: new Date(v.votedAt).toISOString(),
    }],
  })
}
