import { join } from './file-path.ts'

// In a compiled binary every bundled module reports import.meta.dir = '/$bunfs/root' and the
// files embedded with `--asset web` live under it; in development this file sits in src/.
export const compiled = import.meta.dir.startsWith('/$bunfs')
export const appRoot = compiled ? import.meta.dir : join(import.meta.dir, '..')
export const webDir = join(appRoot, 'web')
