// The password of `votelist user add --password -`: the first line of standard input. At a
// terminal (what the install steps have the admin type) it is asked for on standard error with
// the echo off, and Enter ends it: reading to end-of-file would wait, silently, for a Ctrl-D,
// with the password shown on the screen.
export async function readPasswordLine(prompt: string): Promise<string> {
  const tty = (require('node:tty') as typeof import('node:tty')).isatty(0)
  if (!tty) return firstLine()
  const echo = (on: boolean) => Bun.spawnSync(['stty', on ? 'echo' : '-echo'], { stdin: 'inherit', stdout: 'ignore', stderr: 'ignore' })
  // Ctrl-C while the echo is off would leave the terminal without it.
  const interrupted = () => {
    echo(true)
    process.stderr.write('\n')
    process.exit(130)
  }
  process.once('SIGINT', interrupted)
  // Echo off before the prompt: whatever is typed once it shows stays hidden.
  echo(false)
  process.stderr.write(prompt)
  try {
    return await firstLine()
  } finally {
    echo(true)
    process.off('SIGINT', interrupted)
    process.stderr.write('\n')
  }
}

async function firstLine(): Promise<string> {
  const reader = Bun.stdin.stream().getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (value) text += decoder.decode(value, { stream: true })
    const end = text.indexOf('\n')
    if (end >= 0) {
      reader.releaseLock()
      return text.slice(0, end).replace(/\r$/, '')
    }
    if (done) return (text + decoder.decode()).replace(/\r$/, '')
  }
}
