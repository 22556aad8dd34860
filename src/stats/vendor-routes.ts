import { Elysia } from 'elysia'
// uPlot (MIT, © Leon Sorokin), embedded into the binary from node_modules as text. TypeScript
// types a .js import as the module it would be; with type 'text' Bun gives its source string.
// @ts-expect-error -- no declaration for a text import of a .js file
import uplotJs from '../../node_modules/uplot/dist/uPlot.iife.min.js' with { type: 'text' }
import uplotCss from '../../node_modules/uplot/dist/uPlot.min.css' with { type: 'text' }
import { version as uplotVersion } from '../../node_modules/uplot/package.json'

const LICENSE = `/*! uPlot v${uplotVersion} | (c) 2022 Leon Sorokin | MIT License | https://github.com/leeoniya/uPlot */\n`

// The version is in the file name, so the files can be cached for a year.
export const UPLOT_JS = `/assets/vendor/uplot-${uplotVersion}.min.js`
export const UPLOT_CSS = `/assets/vendor/uplot-${uplotVersion}.min.css`

const file = (body: unknown, type: string) => () =>
  new Response(LICENSE + String(body), { headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'public, max-age=31536000, immutable' } })

export const vendorRoutes = () =>
  new Elysia({ name: 'stats.vendor' })
    .get(UPLOT_JS, file(uplotJs, 'text/javascript'), { detail: { hide: true } })
    .get(UPLOT_CSS, file(uplotCss, 'text/css'), { detail: { hide: true } })
