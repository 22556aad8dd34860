import { invalidParameter } from '../http/errors.ts'
import type { Edition } from './schema.ts'

// Java names: 3–16 of [A-Za-z0-9_]. Bedrock (through Geyser/Floodgate) also allows inner spaces and
// one leading "." or "*" prefix, still at most 16 characters: NuVotifier refuses longer names.
export const JAVA_PSEUDO = /^[A-Za-z0-9_]{3,16}$/
export const BEDROCK_PSEUDO = /^[.*]?[A-Za-z0-9_](?:[A-Za-z0-9_ ]*[A-Za-z0-9_])?$/

export function isValidPseudo(pseudo: string, edition: Edition): boolean {
  if (edition === 'java') return JAVA_PSEUDO.test(pseudo)
  return pseudo.length >= 3 && pseudo.length <= 16 && BEDROCK_PSEUDO.test(pseudo)
}

export function checkPseudo(pseudo: string, edition: Edition): string {
  if (!isValidPseudo(pseudo, edition)) {
    throw invalidParameter(edition === 'java'
      ? 'pseudo must be 3 to 16 letters, digits or underscores'
      : 'pseudo must be 3 to 16 letters, digits, underscores or inner spaces, optionally starting with "." or "*"', 'pseudo')
  }
  return pseudo
}

export const pseudoKey = (pseudo: string) => pseudo.toLowerCase()
