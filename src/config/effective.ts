import type { Config } from './load.ts'
import { configSchema, tomlDefault, type Field } from './schema.ts'

// The configuration a site runs with, key by key, as the administrator's dashboard shows it: the
// value as it would be written in votelist.toml, the built-in default, and whether the file set
// it. Secrets never leave the process: a key marked `secret` shows a mask, and so does the
// password of any URL with credentials (a database URL, a proxy), whatever its key.

export interface EffectiveSetting {
  key: string
  value: string
  default: string
  source: 'file' | 'default'
  secret: boolean
}

export const MASK = '********'

// A TOML literal: strings and numbers as JSON writes them, lists with the site's spacing.
const tomlText = (value: unknown): string => (Array.isArray(value) ? `[${value.map(tomlText).join(', ')}]` : JSON.stringify(value))

// The password of every URL with credentials in the text, masked: the one before the host
// (user:password@), and the parameters that carry one (PostgreSQL's ?password=, ?sslpassword=).
export function maskUrlPasswords(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/"]*):([^\s@/"]+)@/gi, (_m, user: string) => `${user}:${MASK}@`)
    .replace(/([?&][^\s=&#"]*password=)[^\s&#"]*/gi, (_m, name: string) => `${name}${MASK}`)
}

export function showValue(field: Field<unknown>, value: unknown): string {
  const text = field.format ? field.format(value) : tomlText(value)
  if (field.secret) return value === '' ? '""' : JSON.stringify(MASK)
  return maskUrlPasswords(text)
}

export function effectiveConfig(config: Config): EffectiveSetting[] {
  const sections = configSchema as unknown as Record<string, Record<string, Field<unknown>>>
  const values = config as unknown as Record<string, Record<string, unknown>>
  return Object.entries(sections).flatMap(([name, fields]) => Object.entries(fields).map(([key, field]) => ({
    key: `${name}.${key}`,
    value: showValue(field, values[name][key]),
    default: field.secret ? showValue(field, field.default) : maskUrlPasswords(tomlDefault(field)),
    source: config.given.includes(`${name}.${key}`) ? 'file' as const : 'default' as const,
    secret: field.secret === true,
  })))
}
