// The five POSIX path functions the site uses, with node:path's answers (test/serve/file-path.test.ts
// holds them to node:path.posix over random paths). Evaluating node:path took about 4.7 ms of
// every start on the project's 2-core VM (a bare compiled Bun.serve that imports it answers its
// first request at 27.2 ms instead of 22.5), for a few string operations. votelist runs on Linux
// only (install.sh, the systemd unit), so POSIX paths are the only ones it meets.

// The segments of `path` with '.' and empty ones dropped and '..' applied; a '..' that would climb
// above the start is kept when `aboveStart` (a relative path) and dropped otherwise (at the root).
function segments(path: string, aboveStart: boolean): string {
  const out: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part !== '..') out.push(part)
    else if (out.length && out[out.length - 1] !== '..') out.pop()
    else if (aboveStart) out.push('..')
  }
  return out.join('/')
}

export const isAbsolute = (path: string): boolean => path.startsWith('/')

function normalize(path: string): string {
  if (path === '') return '.'
  const absolute = isAbsolute(path)
  const trailing = path.endsWith('/')
  const body = segments(path, !absolute)
  if (body === '') return absolute ? '/' : trailing ? './' : '.'
  return (absolute ? '/' : '') + body + (trailing ? '/' : '')
}

export function join(...parts: string[]): string {
  const joined = parts.filter((p) => p !== '').join('/')
  return joined === '' ? '.' : normalize(joined)
}

// The absolute path `parts` name, read right to left from the working directory.
export function resolve(...parts: string[]): string {
  let path = ''
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(path); i--) {
    if (parts[i] !== '') path = path === '' ? parts[i] : `${parts[i]}/${path}`
  }
  if (!isAbsolute(path)) path = `${process.cwd()}/${path}`
  return '/' + segments(path, false)
}

// The path up to the separator before its last segment, trailing separators aside (that separator
// and any before it kept, as node:path does).
export function dirname(path: string): string {
  let i = path.length - 1
  while (i >= 1 && path[i] === '/') i--
  while (i >= 1 && path[i] !== '/') i--
  if (i < 1) return isAbsolute(path) ? '/' : '.'
  return i === 1 && isAbsolute(path) ? '//' : path.slice(0, i)
}

export function basename(path: string): string {
  let end = path.length
  while (end > 0 && path[end - 1] === '/') end--
  return end === 0 ? '' : path.slice(path.lastIndexOf('/', end - 1) + 1, end)
}
