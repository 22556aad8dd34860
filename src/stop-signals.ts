// The signals that ask a command to stop: Ctrl-C (SIGINT), the service manager (SIGTERM), a
// closed terminal or SSH session (SIGHUP). The numbers make the exit code of a command they
// interrupt (128 + the number, as a shell reports it).
export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const
export type StopSignal = keyof typeof STOP_SIGNALS

// The stop signals this process was started without ignoring, read from the kernel's mask of
// ignored signals: those it was started ignoring (nohup ignores SIGHUP, a shell's background job
// SIGINT) must stay ignored, and a listener would take them back. Linux; elsewhere none is taken as
// ignored. Bun.file rather than node:fs: serve reads it at every start (src/lazy-modules.ts).
export async function stopSignalsHeard(): Promise<StopSignal[]> {
  let ignored = 0n
  try {
    const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(await Bun.file('/proc/self/status').text())
    if (mask) ignored = BigInt(`0x${mask[1]}`)
  } catch {
    // No /proc: every stop signal is listened to.
  }
  return (Object.keys(STOP_SIGNALS) as StopSignal[]).filter((s) => ((ignored >> BigInt(STOP_SIGNALS[s] - 1)) & 1n) === 0n)
}
