// What test/run.ts and the tests agree on: the variable that carries the test cluster's address,
// the template database every test copies, and the backends asked for.

export type Backend = 'sqlite' | 'postgres'
export const POSTGRES_ENV = 'VOTELIST_TEST_POSTGRES'
export const TEMPLATE_DATABASE = 'votelist_template'
const ALL: Backend[] = ['sqlite', 'postgres']

// VOTELIST_TEST_BACKENDS=sqlite, =postgres or both (the default), comma-separated.
export function requestedBackends(): Backend[] {
  const asked = process.env.VOTELIST_TEST_BACKENDS
  if (!asked) return ALL
  const list = asked.split(',').map((s) => s.trim()).filter(Boolean)
  const wrong = list.filter((b) => !ALL.includes(b as Backend))
  if (wrong.length || !list.length) throw new Error(`VOTELIST_TEST_BACKENDS: expected sqlite, postgres or both, comma-separated (got "${asked}")`)
  return list as Backend[]
}
