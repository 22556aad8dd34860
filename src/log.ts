export type Level = 'debug' | 'info' | 'warn' | 'error'
const rank: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  // An INFO line written whatever the level: the site's start (its address, the only way to learn
  // the port when http.port = 0) and its stop, which administrators and scripts wait for.
  notice(msg: string, fields?: Record<string, unknown>): void
}

type Sink = (line: string) => void

// One line per event: `2026-11-22T10:00:00.000Z INFO message {"key":"value"}`, to stderr, which
// systemd's journal collects. console.error writes the line as it is, at once, without the stream
// that process.stderr would make at the first line (a few milliseconds of every start).
export function createLogger(level: Level = 'info', sink: Sink = (l) => console.error(l)): Logger {
  const emit = (lv: Level, msg: string, fields?: Record<string, unknown>, always = false) => {
    if (rank[lv] < rank[level] && !always) return
    const extra = fields && Object.keys(fields).length ? ' ' + serialise(fields) : ''
    sink(`${new Date().toISOString()} ${lv.toUpperCase()} ${msg}${extra}`)
  }
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    notice: (m, f) => emit('info', m, f, true),
  }
}

// A request's address as a log line may show it: the values of the query parameters that carry a
// secret (an API key given as ?key=, a reset link's ?token=) are left out, so that the journal,
// read by every administrator and kept for weeks, holds no key that works (keys are stored only
// as hashes) and no reset link that could still be used.
const SECRET_PARAMETER = /([?&](?:key|token)=)[^&#]*/gi
export const loggableUrl = (url: string): string => url.replace(SECRET_PARAMETER, '$1[hidden]')

function errorReplacer(_key: string, value: unknown) {
  if (typeof value === 'bigint') return value.toString()
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value
}

// A log line never throws: the logger is called from the catch blocks that keep the site running
// (a failed job, task or delivery attempt), where a throw would become an error nobody handles,
// and Bun ends the process on one. Fields JSON cannot write (a cycle) are written field by field,
// the one that fails as Bun prints it.
function serialise(fields: Record<string, unknown>): string {
  try {
    return JSON.stringify(fields, errorReplacer)
  } catch {
    // As JSON.stringify writes an object: a field whose value it leaves out (undefined) is left out.
    const each = Object.entries(fields).flatMap(([k, v]) => {
      let text: string | undefined
      try {
        text = JSON.stringify(v, errorReplacer)
      } catch {
        text = JSON.stringify(Bun.inspect(v))
      }
      return text === undefined ? [] : [`${JSON.stringify(k)}:${text}`]
    })
    return `{${each.join(',')}}`
  }
}

// What a caught value says, as text, for an error column or a message: an Error's message, anything
// else as String() writes it, or as Bun prints it when String() cannot (an object without a
// prototype has no toString). Like a log line, it never throws: it runs in those same catch blocks.
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message
  try {
    return String(e)
  } catch {
    return Bun.inspect(e)
  }
}

// Collects lines instead of printing them: for tests, and for commands that must stay quiet.
export function memoryLogger(level: Level = 'debug'): Logger & { lines: string[] } {
  const lines: string[] = []
  return Object.assign(createLogger(level, (l) => lines.push(l)), { lines })
}
