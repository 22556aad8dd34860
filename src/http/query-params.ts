import { invalidParameter } from './errors.ts'

// The first query parameter given several times with different values, if any. Elysia keeps the
// last value of a repeated parameter silently: `key=A&key=B` would be key B, and
// `pseudo=Steve&pseudo=Alex` a check of Alex. Equal values are that value, as the key's several
// placements are.
export function conflictingParameter(url: string): string | null {
  const start = url.indexOf('?')
  // One parameter cannot conflict with itself: the usual request stops here.
  if (start < 0 || !url.includes('&', start)) return null
  const seen = new Map<string, string>()
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    const before = seen.get(name)
    if (before === undefined) seen.set(name, value)
    else if (before !== value) return name
  }
  return null
}

export const givenTwice = (name: string) => invalidParameter(`${name} is given several times with different values; give it once`, name)
