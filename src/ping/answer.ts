import { stripFormatting, type Motd } from '../motd/format.ts'
import { PingError } from './tcp-exchange.ts'

// What a successful ping reads, whatever the protocol.
export interface PingAnswer {
  playersOnline: number
  playersMax: number
  version: string | null
  motd: string | null // plain text
  styledMotd: Motd | null // as the game shows it
  // The Java status's `favicon`, as sent (a data: URL, checked by src/media/icon.ts); null when
  // absent or longer than a real 64×64 icon can be.
  favicon: string | null
  latencyMs: number
}

// Some servers announce absurd or negative counts; a count is clamped to 0…1,000,000 so one
// server cannot dwarf the global sums. Anything that is not a number is not a status answer.
const MAX_COUNT = 1_000_000
export function playerCount(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new PingError(`invalid answer: ${field} is not a number`, true)
  return Math.min(MAX_COUNT, Math.max(0, Math.floor(n)))
}

// A version name as the pages show it (a pill on the ranking row): plain text, at most 64
// characters, whatever the protocol it came in; null when nothing is left.
export const MAX_VERSION = 64
export const versionText = (name: string): string | null => stripFormatting(name).slice(0, MAX_VERSION) || null
