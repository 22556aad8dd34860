import { staticPlugin } from '@elysiajs/static'
import { join } from 'node:path'
import { webDir } from '../paths.ts'

// web/assets is served at /assets from the files embedded in the binary (or from the checkout in
// development). alwaysStatic is explicit because the plugin otherwise reads NODE_ENV, which
// `bun build` inlines: one behaviour in both.
export const assetRoutes = () =>
  staticPlugin({ assets: join(webDir, 'assets'), prefix: '/assets', alwaysStatic: true, maxAge: 3600, silent: true })
