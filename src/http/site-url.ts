import type { Config } from '../config/load.ts'
import { isIP } from '../net/ip.ts'

// The site's own address: the base of every absolute link it writes (vote and badge URLs, reset
// links) and the origins its pages are served from (the CSRF rule of the owner routes and of the
// vote form). With site.base_url set, that is the one address. Without it (a first run, a local
// install) the site answers as itself wherever the browser reaches it on this machine:
// http://localhost, 127.0.0.1 and [::1], and the configured http.host when it names one
// address, on the configured port, or on the port actually bound when that is 0. Links then
// use http://localhost (or that host) on that port.
export interface SiteUrl {
  // site.base_url is set: links and the Origin rule use it alone.
  readonly configured: boolean
  // https: the session cookie is Secure and __Host- prefixed.
  readonly secure: boolean
  // The base of absolute links, without a trailing slash.
  base(): string
  // The origins a browser page of this site sends (Origin header).
  origins(): string[]
  // Called once the site listens: a port of 0 becomes the one bound.
  listening(port: number): void
  // Why `origin` is refused, for the error message: what was expected and which key to set.
  refusal(origin: string): string
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]', ''])

// A host as it is written in a URL (IPv6 literals in brackets).
const urlHost = (host: string) => (isIP(host) === 6 ? `[${host}]` : host)
const originOf = (host: string, port: number) => new URL(`http://${urlHost(host)}:${port}`).origin

export function createSiteUrl(config: Config): SiteUrl {
  const configured = config.site.base_url !== ''
  const host = config.http.host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase()
  // A listener on every address is reached as localhost; one on a single address by that address.
  const specific = WILDCARD.has(host) ? null : host
  let port = config.http.port

  const local = () => [...new Set(['localhost', '127.0.0.1', '::1', ...(specific ? [specific] : [])].map((h) => originOf(h, port)))]
  const base = () => (configured ? config.site.base_url : originOf(specific ?? 'localhost', port))
  const origins = () => (configured ? [new URL(config.site.base_url).origin] : local())

  return {
    configured,
    // By the parsed scheme: a URL's scheme is case-insensitive, and HTTPS://… is https too.
    secure: configured && new URL(config.site.base_url).protocol === 'https:',
    base,
    origins,
    listening(bound) {
      if (config.http.port === 0) port = bound
    },
    refusal(origin) {
      if (configured) {
        return `cross-site request refused: it comes from ${origin}, but this site's address is ${origins()[0]} (site.base_url): open the site at that address, or change site.base_url`
      }
      return `cross-site request refused: it comes from ${origin}, but site.base_url is not set, so this site only answers as ${origins().join(', ')}: open one of those, or set site.base_url to the address you use`
    },
  }
}
