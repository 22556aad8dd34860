import { afterAll, beforeAll } from 'bun:test'
import type { Browser } from 'playwright-core'
import type { App } from '../../src/app.ts'
import type { ConfigInput } from '../../src/config/load.ts'
import type { ServerCreate } from '../../src/servers/schema.ts'
import { launchChromium } from '../chromium.ts'
import { freePort } from '../deliveries/setup.ts'
import { cleanupTemp, seedServer, testApp, testRuntime, type TestRuntime } from '../helpers.ts'
import { cookieOf } from '../owner/session.ts'

export interface OwnerSite {
  rt: TestRuntime
  app: App
  base: string
  // The server listed, and the session cookie (`name=value`) of its owner, owner@example.com.
  slug: string
  cookie: string
  browser: Browser
  stop(): Promise<void>
}

// The site in this process on a free port (site.base_url set to it, the rest from `config`), one
// server listed by owner@example.com signed in through the login route, and Debian's Chromium:
// what the dashboard's browser tests that need no binary start from.
export async function ownerSite(config: ConfigInput, server: Partial<ServerCreate>): Promise<OwnerSite> {
  const port = freePort()
  const base = `http://127.0.0.1:${port}`
  const rt = testRuntime({ ...config, site: { ...config.site, base_url: base } }, Date.now())
  const { slug } = (await seedServer(rt, server)).server
  const app = (await testApp(rt)).listen({ hostname: '127.0.0.1', port })
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
  })
  const browser = await launchChromium()
  return {
    rt, app, base, slug, cookie: cookieOf(login), browser,
    async stop() {
      await browser.close()
      await app.stop()
    },
  }
}

// ownerSite() for a whole test file: started before its tests (then `prepare`, e.g. a channel to
// set up through the API), stopped after them. Its fields are there once the tests run.
export function ownerSiteForFile(config: ConfigInput, server: Partial<ServerCreate>, prepare?: (site: OwnerSite) => Promise<void>): OwnerSite {
  const site = {} as OwnerSite
  beforeAll(async () => {
    Object.assign(site, await ownerSite(config, server))
    await prepare?.(site)
  }, 60_000)
  afterAll(async () => {
    await site.stop?.()
    cleanupTemp()
  })
  return site
}
