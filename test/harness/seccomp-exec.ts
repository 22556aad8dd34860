// Runs a command under a seccomp filter built like systemd's SystemCallFilter=, so the unit's
// filter can be tested without systemd: `seccomp-exec.ts FILTER COMMAND...`, FILTER being the
// unit's value, e.g. "@system-service" or "@system-service ~@privileged". The syscall groups are
// expanded by `systemd-analyze syscall-filter`. Anything outside the filter KILLS the process
// (stricter than the unit's SystemCallErrorNumber=EPERM): a test passing here uses no denied call.
import { dlopen, FFIType, ptr } from 'bun:ffi'

function expand(group: string, seen: Set<string>): string[] {
  const text = Bun.spawnSync(['systemd-analyze', 'syscall-filter', group]).stdout.toString()
  const out: string[] = []
  for (const raw of text.split('\n').slice(1)) {
    const item = raw.trim()
    if (!item || item.startsWith('#')) continue
    if (!item.startsWith('@')) out.push(item)
    else if (!seen.has(item)) {
      seen.add(item)
      out.push(...expand(item, seen))
    }
  }
  return out
}

const [filter, ...command] = process.argv.slice(2)
const allowed = new Set<string>()
for (const part of filter.split(/\s+/).filter(Boolean)) {
  const names = part.startsWith('@') || part.startsWith('~@') ? expand(part.replace(/^~/, ''), new Set()) : [part.replace(/^~/, '')]
  for (const n of names) (part.startsWith('~') ? allowed.delete(n) : allowed.add(n))
}

const SCMP_ACT_KILL_PROCESS = 0x80000000
const SCMP_ACT_ALLOW = 0x7fff0000
const seccomp = dlopen('libseccomp.so.2', {
  seccomp_init: { args: [FFIType.u32], returns: FFIType.ptr },
  seccomp_syscall_resolve_name: { args: [FFIType.cstring], returns: FFIType.i32 },
  seccomp_rule_add: { args: [FFIType.ptr, FFIType.u32, FFIType.i32, FFIType.u32], returns: FFIType.i32 },
  seccomp_load: { args: [FFIType.ptr], returns: FFIType.i32 },
}).symbols
const libc = dlopen('libc.so.6', { execv: { args: [FFIType.cstring, FFIType.ptr], returns: FFIType.i32 } }).symbols

const ctx = seccomp.seccomp_init(SCMP_ACT_KILL_PROCESS)
for (const name of allowed) {
  const nr = seccomp.seccomp_syscall_resolve_name(Buffer.from(`${name}\0`))
  // Names of other architectures do not resolve here; systemd skips them the same way.
  if (nr >= 0) seccomp.seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)
}
// seccomp_load also sets no_new_privs (NoNewPrivileges=yes); the filter survives execv.
if (seccomp.seccomp_load(ctx) !== 0) throw new Error('seccomp_load failed')
const args = command.map((a) => Buffer.from(`${a}\0`))
const argv = new BigUint64Array(args.length + 1)
args.forEach((a, i) => { argv[i] = BigInt(ptr(a)) })
libc.execv(args[0], ptr(argv))
console.error(`execv ${command[0]} failed`)
process.exit(127)
