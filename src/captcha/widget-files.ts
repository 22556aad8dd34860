// The altcha widget's files as text, in a module of their own: src/captcha/routes.ts imports it at
// the first request for one of them, so some 100 KB stay out of what every start loads.
// @ts-expect-error TypeScript does not type text imports of .js files; Bun hands over the file as a string.
import widgetSource from '../../node_modules/altcha/dist/external/altcha.min.js' with { type: 'text' }
import widgetCss from '../../node_modules/altcha/dist/external/altcha.css' with { type: 'text' }
// @ts-expect-error as above
import pbkdf2Worker from '../../node_modules/altcha/dist/workers/pbkdf2.js' with { type: 'text' }

export const source = widgetSource as string
export const css = widgetCss
export const worker = pbkdf2Worker as string
