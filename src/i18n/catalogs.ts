import { join } from '../file-path.ts'
import { nodeFs } from '../lazy-modules.ts'
import { webDir } from '../paths.ts'

// The languages of the site: one catalog per language, web/i18n/<code>.json, found when the
// program starts (embedded in the binary with web/) and read when a page first needs one.
// Adding a language is adding its file (docs/developers.md#languages). English is the reference:
// a message another catalog lacks is taken from it, so a partial translation shows English where
// it has nothing yet (the tests require every catalog of the project to be complete).

export interface Catalog {
  name: string // the language in its own words: "Français"
  locale: string // the BCP 47 tag Intl formats with: "fr-FR"
  messages: Record<string, string | Record<string, string>>
}

export const REFERENCE_LANGUAGE = 'en'
export const CATALOG_DIR = join(webDir, 'i18n')

const CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

function readCatalog(path: string): Catalog {
  const c = JSON.parse(nodeFs().readFileSync(path, 'utf8')) as Partial<Catalog>
  if (typeof c.name !== 'string' || typeof c.locale !== 'string' || typeof c.messages !== 'object' || c.messages === null) {
    throw new Error(`${path}: a catalog is {"name", "locale", "messages"}`)
  }
  Intl.getCanonicalLocales(c.locale)
  return c as Catalog
}

// The language codes of the catalogs in `dir`: the reference first (the switcher and the hreflang
// alternates list the languages in this order), then the others alphabetically.
function catalogCodes(dir: string): string[] {
  // A Bun.Glob rather than node:fs's readdirSync, which took half the time (0.5 against 1-1.2 ms
  // in the binary) but would load node:fs at every start (src/lazy-modules.ts).
  return [...new Bun.Glob('*.json').scanSync({ cwd: dir, onlyFiles: true })].sort().map((file) => {
    const code = file.slice(0, -'.json'.length)
    if (!CODE.test(code)) throw new Error(`${join(dir, file)}: a catalog is named by its language code (en.json, fr.json, pt-BR.json)`)
    return code
  }).sort((a, b) => Number(b === REFERENCE_LANGUAGE) - Number(a === REFERENCE_LANGUAGE))
}

export function loadCatalogs(dir = CATALOG_DIR, codes: readonly string[] = catalogCodes(dir)): ReadonlyMap<string, Catalog> {
  const found = new Map<string, Catalog>()
  for (const code of codes) found.set(code, readCatalog(join(dir, `${code}.json`)))
  const reference = found.get(REFERENCE_LANGUAGE)
  if (!reference) throw new Error(`${dir}: the reference catalog ${REFERENCE_LANGUAGE}.json is missing`)
  return new Map([...found].map(([code, c]) => [code, { ...c, messages: { ...reference.messages, ...c.messages } }]))
}

export const LANGUAGES: readonly string[] = catalogCodes(CATALOG_DIR)

// The catalogs themselves are read at the first page that needs one (the languages found at start,
// not looked for again): the start, and a health check, do not parse them.
let loaded: ReadonlyMap<string, Catalog> | null = null
export const catalogs = (): ReadonlyMap<string, Catalog> => (loaded ??= loadCatalogs(CATALOG_DIR, LANGUAGES))

export const catalogOf = (lang: string): Catalog => catalogs().get(lang) ?? catalogs().get(REFERENCE_LANGUAGE)!
