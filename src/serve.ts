import type { AnyElysia } from 'elysia'
import { createApp, type App } from './app.ts'
import { databaseLabel } from './config/load.ts'
import { acquireInstanceLock } from './db/instance-lock.ts'
import { runAs } from './db/owner-guard.ts'
import { outerBodyLimit, routeBodyLimits } from './http/body-limit.ts'
import type { Logger } from './log.ts'
import { listingPolicy } from './servers/service.ts'
import { listenToOtherInstances, recoverInterruptedWork, registerSiteWork, type Site } from './site.ts'
import { stopSignalsHeard, type StopSignal } from './stop-signals.ts'
import { createVoteWriter, type VoteWriter } from './votes/writer.ts'
import { VERSION } from './version.ts'

// `permission`: the system refused what only the admin can change (a port below 1024).
export class StartError extends Error {
  constructor(message: string, readonly permission = false) {
    super(message)
  }
}

export interface ServeOptions {
  // Resolves when the site must stop. Default: the first SIGTERM, SIGINT or SIGHUP.
  stopSignal?: Promise<unknown>
  // Test harnesses mount extra routes here; the command line mounts nothing.
  extend?: (app: App) => AnyElysia
  // The instance lock, when the caller took it before opening the store (votelist serve does, so
  // that a second serve never migrates the database of one that runs); released at the end.
  // Default: taken here (SQLite).
  lock?: { release(): void } | null
}

// The site's life: take the database for this process (SQLite), re-queue jobs a previous process
// left half done, hear the other instances (PostgreSQL), listen, run the scheduler; on the stop signal stop accepting connections, let the
// requests in flight and the running jobs finish, save the keys' last-used times, then close
// the store (SQLite checkpoints the WAL into the main file). Closes the store in every case.
export async function serveSite(rt: Site, opts: ServeOptions = {}): Promise<void> {
  // Heard before anything starts: from then on a stop signal never meets its default action (death).
  const stopSignal = opts.stopSignal ?? stopSignals(rt.log, await stopSignalsHeard())
  let lock: { release(): void } | null = opts.lock ?? null
  let listening: { stop(): Promise<void> } | null = null
  let checkpoints: { stop(): Promise<void>; readonly running: boolean } | null = null
  let voteWriter: VoteWriter | null = null
  try {
    if (opts.lock === undefined && rt.store.kind === 'sqlite') lock = acquireInstanceLock(rt.config.database.path)
    await recoverInterruptedWork(rt)
    registerSiteWork(rt)
    listening = await listenToOtherInstances(rt)
    const base = createApp(rt)
    const app = opts.extend ? opts.extend(base) : base
    const { host, port } = rt.config.http
    try {
      listenApp(app, host, port, rt.config.http.max_body_bytes)
    } catch (e) {
      throw listenFault(e, host, port)
    }
    rt.siteUrl.listening(app.server!.port!)
    rt.scheduler.start()
    // On a SQLite file, WAL checkpoints and votes are written on threads of their own.
    if (rt.store.kind === 'sqlite') {
      voteWriter = createVoteWriter({
        path: rt.config.database.path, policy: listingPolicy(rt.config), log: rt.log,
        onDue: rt.queue.dueElsewhere, checkpointing: () => checkpoints?.running ?? false,
        shareGate: (gate) => rt.store.shareWriteGate?.(gate),
      })
    }
    checkpoints = rt.store.checkpointInBackground(rt.log, voteWriter?.hold)
    if (checkpoints) rt.voteWriter = voteWriter
    rt.log.notice('votelist listening', { version: VERSION, url: app.server!.url.href, database: databaseLabel(rt.config), config: rt.config.source })
    if (!rt.siteUrl.configured) {
      rt.log.warn(`site.base_url is not set: links use the default address ${rt.siteUrl.base()}, and the dashboard works from this machine only; set site.base_url in the configuration to the address people open`, { accepted: rt.siteUrl.origins() })
    }
    // The binary starts with the JIT made reluctant (the build's --compile-jit-policy): code that
    // runs once at start stays interpreted instead of being compiled for nothing. That includes
    // the first second of serving: each route's handler is composed at its first request, and
    // the work due at start runs 250 ms after listening (alternating starts on an existing
    // database, 20 and 30 each: health 65.4 against 67.3 ms and 66.7 against 69.4 with the usual
    // policy set here). Then the JIT works as usual. (Elsewhere the policy is already the usual one.)
    setTimeout(() => Bun.unsafe.setJITPolicy(1), 1000).unref()
    const signal = await stopSignal
    rt.log.info('stopping: finishing in-flight requests and jobs', typeof signal === 'string' ? { signal } : undefined)
    await app.stop()
    await Promise.all([rt.queue.stop(), rt.scheduler.stop()])
    // Keys' "last used" lives in memory between the scheduler's minutely flushes: write it now
    // that no request can use a key any more, or up to a minute of it would be lost.
    await flushKeyUse(rt)
  } finally {
    rt.voteWriter = null
    await voteWriter?.stop()
    await checkpoints?.stop()
    await listening?.stop().catch(() => {})
    await rt.store.close()
    lock?.release()
  }
  rt.log.notice('stopped')
}

// The unit grants no capability: a port below the first unprivileged one (1024 unless the
// system lowered it) is refused, which a restart does not change.
function listenFault(e: unknown, host: string, port: number): StartError {
  if ((e as { code?: unknown }).code === 'EACCES' && port > 0 && port < 1024) {
    return new StartError(`cannot listen on ${host}:${port}: ports below 1024 need the capability CAP_NET_BIND_SERVICE, which ${runAs()} does not have: put a reverse proxy in front and set a port from 1024 up, or grant the capability (admins.md, "Ports below 1024") (http.port)`, true)
  }
  return new StartError(`cannot listen on ${host}:${port}: ${(e as Error).message} (http.host / http.port)`)
}

// Serves the app on host:port as the site does (the benchmarks serve it through this too):
// Bun.serve itself rather than Elysia's listen(), which composes the app's handler twice and,
// once listening, composes it again with the route table and asks for a collection: work the
// first requests waited behind; it would also serve in development mode (outside NODE_ENV=
// production) with a WebSocket handler the site has no use for. Every route but the check and
// health is in app.fetch (the app has systemRouter off), so the server's own routes are the app's
// serve.routes. reusePort off: with SO_REUSEPORT a second site on this port would start beside
// the first and the kernel would split the requests between two databases.
export function listenApp(app: AnyElysia, host: string, port: number, maxBodyBytes: number): void {
  const maxRequestBodySize = outerBodyLimit([maxBodyBytes, ...routeBodyLimits(app.routes).values()])
  app.server = Bun.serve({ hostname: host, port, reusePort: false, idleTimeout: 30, development: false, maxRequestBodySize, routes: app.config.serve?.routes as Bun.Serve.Routes<undefined, string>, fetch: composedHandler(app) })
}

// The app's handler, composed. Elysia ends each composition with a collection (Bun.gc(false) in
// its composeGeneralHandler): 2.6 ms of every start in the binary (marks around composing and
// Bun.serve together, 15 alternating starts: 2.6 against 5.2 ms), for garbage the collector takes
// in its own time. Bun.gc is a no-op for the length of that one synchronous call, then restored.
function composedHandler(app: AnyElysia): (request: Request) => Response | Promise<Response> {
  const bun = Bun as { gc: typeof Bun.gc }
  const gc = bun.gc
  bun.gc = () => 0
  try {
    return app.fetch
  } finally {
    bun.gc = gc
  }
}

async function flushKeyUse(rt: Site) {
  try {
    await rt.keyCache.flush(rt.clock.now())
  } catch (e) {
    // A full disk at stop: keys only lose their last-used time, so the stop goes on.
    rt.log.error('could not save the API keys\' last-used times', { error: e })
  }
}

// The first SIGTERM, SIGINT or SIGHUP (the SSH session that started it closed) asks for a graceful
// stop; a second one (an impatient Ctrl-C) exits at once. Nothing committed is lost either way:
// unfinished jobs keep their rows and run again. A signal it was started ignoring (nohup ignores
// SIGHUP) stays ignored.
function stopSignals(log: Logger, heard: StopSignal[]): Promise<string> {
  return new Promise((resolve) => {
    let asked = false
    const on = (signal: string) => {
      if (asked) {
        log.warn('second stop signal: exiting without waiting for running work', { signal })
        process.exit(1)
      }
      asked = true
      resolve(signal)
    }
    for (const signal of heard) process.on(signal, on)
  })
}
