// Messages and formats in one language, the same code on the server (pages, badge) and in the
// browser (the dashboard, the pages' scripts): whoever writes a date, a number or a sentence
// writes it the same way.
//
// A catalog is one JSON file per language in web/i18n/ (docs/developers.md#languages):
//   { "name": "Français", "locale": "fr-FR", "messages": { "vote.submit": "Voter", … } }
// `name` is the language in its own words (the switcher shows it), `locale` the BCP 47 tag Intl
// formats dates and numbers with. A message is a string with {placeholders}, or the forms of a
// count by Intl.PluralRules category ({"one": "{count} vote", "other": "{count} votes"}).
// Messages hold no markup: where a sentence holds a link or a <code>, the caller passes the
// element as a parameter and it is placed, never parsed (parts()).
//
// Dates and times: ONE set of Intl formats for pages, the dashboard and chart axes (FORMATS).
// Pages write UTC (the site's months are UTC months); charts and "in your time zone" notes use
// the visitor's own zone with the same formats.

/** @typedef {typeof import('../i18n/en.json')} Catalog */
/** @typedef {Catalog['messages']} Messages */
/** @typedef {{ [K in keyof Messages]: Messages[K] extends string ? K : never }[keyof Messages]} TextKey */
/** @typedef {{ [K in keyof Messages]: Messages[K] extends string ? never : K }[keyof Messages]} CountKey */
/** @typedef {Record<string, unknown>} Params */
/** @typedef {Date | number | string} When a Date, milliseconds since 1970, or an ISO 8601 text */

/** @type {Record<string, Intl.DateTimeFormatOptions>} */
export const FORMATS = {
  date: { day: 'numeric', month: 'long', year: 'numeric' }, // 22 November 2026 · 22 novembre 2026
  shortDate: { day: 'numeric', month: 'short' }, // 22 Nov · 22 nov.
  month: { month: 'long', year: 'numeric' }, // November 2026 · novembre 2026
  shortMonth: { month: 'short', year: 'numeric' }, // Nov 2026 · nov. 2026
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, // 14:05
  timeSeconds: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }, // 14:05:30
  zone: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }, // 14:05 GMT+9
}

const PLACEHOLDER = /\{(\w+)\}/g

/** @param {When} when */
const toDate = (when) => (when instanceof Date ? when : new Date(when))

// Relative times ("in 2 min") in the largest unit that fits.
/** @type {Array<[Intl.RelativeTimeFormatUnit, number]>} */
const UNITS = [['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]]

/**
 * A language's messages and formats. `timeZone`: 'UTC' for what the site writes (pages, the
 * dashboard's tables); 'local' for the visitor's own zone (charts, local-time notes).
 * @param {string} lang the catalog's code (its file name), as in <html lang>
 * @param {{ name: string, locale: string, messages: Record<string, unknown> }} catalog
 * @param {'UTC' | 'local'} [timeZone]
 */
export function translator(lang, catalog, timeZone = 'UTC') {
  const zone = timeZone === 'UTC' ? 'UTC' : undefined
  const { locale } = catalog
  const messages = /** @type {Record<string, string | Record<string, string>>} */ (catalog.messages)
  // The plural rules and the number format are made on first use: a server that has written no
  // count and no number yet keeps ICU's locale data out of its memory.
  /** @type {Intl.PluralRules | undefined} */
  let plural
  /** @type {Intl.NumberFormat | undefined} */
  let integer
  /** @type {Map<string, Intl.DateTimeFormat>} */
  const dateFormats = new Map()
  /** @param {string} name */
  const dateFormat = (name) => {
    let f = dateFormats.get(name)
    if (!f) dateFormats.set(name, f = new Intl.DateTimeFormat(locale, { ...FORMATS[name], timeZone: zone }))
    return f
  }
  /** @param {number} n */
  const number = (n) => (integer ??= new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })).format(n)

  /**
   * The message's pieces: its own text, and each parameter in its place — numbers written out in
   * the language, strings as they are, anything else (an element, escaped markup) as given.
   * @param {string} text
   * @param {Params} params
   * @returns {unknown[]}
   */
  function split(text, params) {
    /** @type {unknown[]} */
    const out = []
    let last = 0
    for (const m of text.matchAll(PLACEHOLDER)) {
      if (m.index > last) out.push(text.slice(last, m.index))
      const value = params[m[1]]
      out.push(typeof value === 'number' ? number(value) : value === undefined ? m[0] : value)
      last = m.index + m[0].length
    }
    if (last < text.length) out.push(text.slice(last))
    return out
  }

  /** @param {string} key */
  const textOf = (key) => {
    const m = messages[key]
    return typeof m === 'string' ? m : key
  }
  /**
   * @param {string} key
   * @param {number} count
   */
  const formOf = (key, count) => {
    const forms = messages[key]
    if (typeof forms !== 'object') return key
    return forms[(plural ??= new Intl.PluralRules(locale)).select(count)] ?? forms.other ?? key
  }

  const self = {
    lang,
    locale,
    name: catalog.name,
    /**
     * @param {TextKey} key
     * @param {Params} [params]
     */
    t: (key, params = {}) => split(textOf(key), params).join(''),
    /**
     * A message with a count: the form the language uses for that number; {count} is the number.
     * @param {CountKey} key
     * @param {number} count
     * @param {Params} [params]
     */
    n: (key, count, params = {}) => split(formOf(key, count), { count, ...params }).join(''),
    /**
     * The pieces of a message whose parameters are elements or markup (see split()).
     * @param {TextKey} key
     * @param {Params} [params]
     */
    parts: (key, params = {}) => split(textOf(key), params),
    /**
     * @param {CountKey} key
     * @param {number} count
     * @param {Params} [params]
     */
    countParts: (key, count, params = {}) => split(formOf(key, count), { count, ...params }),
    /** Whether the catalog has this message (error texts are looked up by code and field). @param {string} key */
    has: (key) => typeof messages[key] === 'string',
    /** A message looked up by a key built at run time; null when there is none. @param {string} key @param {Params} [params] */
    find: (key, params = {}) => (typeof messages[key] === 'string' ? split(/** @type {string} */ (messages[key]), params).join('') : null),
    number,
    /** 0.995 → "99.5%" · "99,5 %" @param {number} ratio */
    percent: (ratio) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio),
    /** "12 ms", "1.5 s" @param {number} ms */
    duration: (ms) => (ms < 1000
      ? new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond' }).format(ms)
      : new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', maximumFractionDigits: 1 }).format(ms / 1000)),
    /** @param {When} when */
    date: (when) => dateFormat('date').format(toDate(when)),
    /** @param {When} when */
    shortDate: (when) => dateFormat('shortDate').format(toDate(when)),
    /** "2026-11" or a time → "November 2026" @param {When} when */
    month: (when) => dateFormat('month').format(typeof when === 'string' && /^\d{4}-\d{2}$/.test(when) ? new Date(`${when}-01T00:00:00Z`) : toDate(when)),
    /** @param {When} when */
    shortMonth: (when) => dateFormat('shortMonth').format(toDate(when)),
    /** @param {When} when @param {{ seconds?: boolean }} [options] */
    time: (when, { seconds = false } = {}) => dateFormat(seconds ? 'timeSeconds' : 'time').format(toDate(when)),
    /**
     * "22 November 2026, 14:05 UTC" where the zone is UTC (`short`, for tables under a UTC
     * heading: "22 Nov, 14:05"), or with the zone's name for the visitor's own ("… 23:05 GMT+9").
     * @param {When} when
     * @param {{ short?: boolean, seconds?: boolean }} [options]
     */
    dateTime: (when, { short = false, seconds = false } = {}) => {
      const d = toDate(when)
      const date = dateFormat(short ? 'shortDate' : 'date').format(d)
      if (timeZone !== 'UTC') return self.t('format.dateTime', { date, time: dateFormat('zone').format(d) })
      const written = self.t('format.dateTime', { date, time: dateFormat(seconds ? 'timeSeconds' : 'time').format(d) })
      return short ? written : self.t('format.utc', { time: written })
    },
    /**
     * "in 2 min", "5 min ago" · "dans 2 min", "il y a 5 min"
     * @param {When} when
     * @param {number} [now]
     */
    relative: (when, now = Date.now()) => {
      const seconds = Math.round((toDate(when).getTime() - now) / 1000)
      const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? UNITS[UNITS.length - 1]
      return new Intl.RelativeTimeFormat(locale, { style: 'short', numeric: 'auto' }).format(Math.round(seconds / size), unit)
    },
  }
  return self
}

/** @typedef {ReturnType<typeof translator>} Translator */

// Text of the site's users (a server's name, an e-mail address) inside the site's own sentences,
// titles and lines, on the pages, the badge and the dashboard alike: a name holding right-to-left
// letters or direction marks (an override it never ends, a stray isolate closer) is set apart
// between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so that it is drawn
// as one piece and the words around it keep their order. A closer
// the name did not open is left out (it would end the isolate early), and a line or paragraph
// separator, which would end it too, is a space. Other text is returned as it is.
const BIDI_SENSITIVE = /[\u0590-\u08ff\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u

/** @param {string} text */
export function isolateText(text) {
  if (!BIDI_SENSITIVE.test(text)) return text
  let open = 0
  const inner = text.replace(/[\u2028\u2029\u2066-\u2069]/g, (c) => {
    if (c === '\u2028' || c === '\u2029') return ' '
    if (c !== '\u2069') open++
    else if (open === 0) return ''
    else open--
    return c
  })
  return `\u2068${inner}\u2069`
}

// A message's text parameters (a server's name, a month, a player's name) set apart from its
// words the same way; other parameters (numbers, elements, markup) are left as they are.
/**
 * @param {Params} params
 * @returns {Params}
 */
export function isolateParams(params) {
  /** @type {Params | null} */
  let out = null
  for (const [k, v] of Object.entries(params)) {
    if (typeof v !== 'string') continue
    const text = isolateText(v)
    if (text !== v) (out ??= { ...params })[k] = text
  }
  return out ?? params
}

// An API error in the reader's words. API messages stay English (scripts read them); a catalog
// says the same per error code and field or reason: `error.<CODE>.<field>` or
// `error.<CODE>.<REASON>`, else `error.<CODE>`, else `error.other`; a form that gives a `scope` ("login", "reset") looks for `error.<scope>.<CODE>…`
// first, where the same code means something more precise. {message} in a catalog's text is
// the API's own message (the English catalog mostly shows it as it is: it names what is wrong
// most precisely); {seconds} is Retry-After; {allowed} the values the parameter may take, where
// the site names a closed list (a game mode).
/**
 * @param {Translator} tr
 * @param {{ code: string, field?: string | null, reason?: string | null, message: string, retryAfter?: number | null, allowed?: readonly string[] }} error
 * @param {string} [scope]
 */
export function errorText(tr, error, scope) {
  const message = error.message.charAt(0).toUpperCase() + error.message.slice(1)
  const params = { message, seconds: error.retryAfter ?? 1, allowed: error.allowed?.join(', ') ?? '' }
  const detail = error.field || error.reason
  const keys = [detail ? `${error.code}.${detail}` : null, error.code].filter((k) => k !== null)
  const candidates = [...(scope ? keys.map((k) => `error.${scope}.${k}`) : []), ...keys.map((k) => `error.${k}`)]
  for (const key of candidates) {
    const text = tr.find(key, params)
    if (text !== null) return text
  }
  return tr.t('error.other', params)
}

// The catalog a page carries for its scripts (src/i18n/translate.ts writes it).
/** @param {'UTC' | 'local'} timeZone */
export function pageTranslator(timeZone) {
  const data = JSON.parse(document.getElementById('vl-i18n')?.textContent ?? 'null')
  return translator(data.lang, data, timeZone)
}
