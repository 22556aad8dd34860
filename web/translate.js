// Not served: the path the dashboard's modules import web/assets/translate.js by. In the browser
// /assets/dashboard/x.js asks for '../translate.js', which is /assets/translate.js; on disk that
// same relative path from web/dashboard/ lands here, so the type check follows it to the real file.
export * from './assets/translate.js'
