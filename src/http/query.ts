import { t } from 'elysia'
import { invalidParameter } from './errors.ts'

// An integer query parameter, strict: digits only ("1.5", "abc", "0x10", "5e1" are refused),
// then the range. One message for every way it can be wrong, naming the parameter.
export function queryInteger(name: string, min: number, max: number, description: string) {
  const message = `${name} must be an integer from ${min} to ${max}`
  return t
    .Transform(t.String({ pattern: '^[0-9]{1,9}$', error: message, description }))
    .Decode((text) => {
      const n = Number(text)
      if (n < min || n > max) throw invalidParameter(message)
      return n
    })
    .Encode((n) => String(n))
}
