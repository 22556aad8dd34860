// uPlot's files as text, in a module of their own: src/stats/vendor-routes.ts imports it at the
// first request for one of them, so they stay out of what every start loads. TypeScript types a
// .js import as the module it would be; with type 'text' Bun gives its source string.
// @ts-expect-error -- no declaration for a text import of a .js file
import uplotJs from '../../node_modules/uplot/dist/uPlot.iife.min.js' with { type: 'text' }
import uplotCss from '../../node_modules/uplot/dist/uPlot.min.css' with { type: 'text' }

export const script = uplotJs as string
export const css = uplotCss
