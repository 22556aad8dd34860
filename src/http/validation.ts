import type { TSchema } from '@sinclair/typebox'
import { Value, type ValueError } from '@sinclair/typebox/value'
import { invalidParameter } from './errors.ts'

// One message per failed value, naming the parameter. A schema's own `error` text wins (that is
// where the contract's wording lives, e.g. "window must be an integer from 1 to 1440").
export function describeValueError(e: Pick<ValueError, 'path' | 'message' | 'schema'>, fallbackName = 'body'): string {
  const custom = (e.schema as { error?: unknown } | undefined)?.error
  if (typeof custom === 'string') return custom
  const name = e.path.replace(/^\//, '').replaceAll('/', '.') || fallbackName
  return `${name}: ${e.message.charAt(0).toLowerCase()}${e.message.slice(1)}`
}

// A union's own error says only "expected union value" (the test vote's optional, nullable body
// given {"pseudo": 5}). The alternative that got furthest into the value says what is wrong: the
// object's field rather than "expected null". Its path is that field's, for `error.field`.
type Nested = { path: string; schema?: unknown; errors?: readonly { First(): Nested | undefined }[] }
export function innermost<E extends Nested>(e: E): E {
  // The union's own wording, where it has one, wins as any schema's does.
  if (typeof (e.schema as { error?: unknown } | undefined)?.error === 'string') return e
  let best: E = e
  for (const alternative of e.errors ?? []) {
    const first = alternative.First() as E | undefined
    if (first && first.path.length > best.path.length) best = innermost(first)
  }
  return best
}

// The field at fault: the first step of the error's JSON pointer ("/modes/2" → "modes"); none
// when the value as a whole is wrong (a body that is not an object).
export function fieldOfPath(path: string): string | undefined {
  const step = path.split('/')[1]
  return step ? step.replaceAll('~1', '/').replaceAll('~0', '~') : undefined
}

// The same checks as the HTTP boundary, for callers that are not HTTP (the command line).
export function assertValid<T extends TSchema>(schema: T, value: unknown, name = 'input'): void {
  const first = Value.Errors(schema, value).First()
  if (first) throw invalidParameter(describeValueError(first, name), fieldOfPath(first.path))
}
