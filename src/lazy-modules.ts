// Node's file, networking, name and thread modules, required at their first use rather than imported at
// start: evaluating node:net, node:dns/promises and node:fs/promises took 6-9 ms of every start on
// the project's 2-core VM, node:dgram a few more, node:fs about 4.5 (a bare compiled Bun.serve
// that imports it answers its first request at 26.9 ms instead of 22.4), for work that comes later
// (a ping, a Votifier push, a name lookup, a backup, a file written, the first vote) or that a start does without
// them (src/config/load.ts, src/db/open.ts, src/i18n/catalogs.ts). require, not import(): it is
// synchronous, so the Votifier connection on the delivery path does not wait an extra turn for a
// module already loaded.
let fs: typeof import('node:fs') | undefined
let net: typeof import('node:net') | undefined
let dgram: typeof import('node:dgram') | undefined
let dns: typeof import('node:dns/promises') | undefined
let fsp: typeof import('node:fs/promises') | undefined
let workerThreads: typeof import('node:worker_threads') | undefined

export const nodeFs = () => (fs ??= require('node:fs') as typeof import('node:fs'))
export const nodeNet = () => (net ??= require('node:net') as typeof import('node:net'))
export const nodeDgram = () => (dgram ??= require('node:dgram') as typeof import('node:dgram'))
export const nodeDns = () => (dns ??= require('node:dns/promises') as typeof import('node:dns/promises'))
export const nodeFsPromises = () => (fsp ??= require('node:fs/promises') as typeof import('node:fs/promises'))
export const nodeWorkerThreads = () => (workerThreads ??= require('node:worker_threads') as typeof import('node:worker_threads'))
