// stats-widgets.js loads uPlot (served from the binary) as a classic script, which sets
// window.uPlot; its types are the package's own.
import type uPlot from 'uplot'

declare global {
  interface Window {
    uPlot?: typeof uPlot
  }
}
