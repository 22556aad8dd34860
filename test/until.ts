// Waits for a condition, never for a time: `check` is polled until it holds. The deadline only
// runs out when something is wrong, so it is generous enough for a slow, busy machine, and it
// ends the wait before the test's own timeout with a message naming what never happened.
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
    await Bun.sleep(10)
  }
}
