import { Elysia } from 'elysia'
import { vendorFile } from '../http/vendor-file.ts'
// uPlot (MIT, © Leon Sorokin), embedded into the binary from node_modules as text
// (src/stats/uplot-files.ts), loaded at the first request for one of its files.
import { version as uplotVersion } from '../../node_modules/uplot/package.json'

const LICENSE = `/*! uPlot v${uplotVersion} | (c) 2022 Leon Sorokin | MIT License | https://github.com/leeoniya/uPlot */\n`

// The version is in the file name, so the files can be cached for a year.
export const UPLOT_JS = `/assets/vendor/uplot-${uplotVersion}.min.js`
export const UPLOT_CSS = `/assets/vendor/uplot-${uplotVersion}.min.css`

const file = (body: (files: typeof import('./uplot-files.ts')) => string, type: string) =>
  vendorFile(() => import('./uplot-files.ts').then((f) => LICENSE + body(f)), type)

export const vendorRoutes = () =>
  new Elysia({ name: 'stats.vendor' })
    .get(UPLOT_JS, file((f) => f.script, 'text/javascript'), { detail: { hide: true } })
    .get(UPLOT_CSS, file((f) => f.css, 'text/css'), { detail: { hide: true } })
