import { atFirstUse } from '../first-use.ts'

// A third-party file the site serves itself (a script, a stylesheet): its name carries its version,
// so it is cached for a year. Its text is made at the first request and kept; the modules that hold
// such texts are imported then, so they stay out of what every start loads.
export function vendorFile(make: () => Promise<string>, type: string) {
  const text = atFirstUse(make)
  return async () => new Response(await text(), {
    headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'public, max-age=31536000, immutable' },
  })
}
