import { afterAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { call, cleanupTemp, testApp, testRuntime } from '../helpers.ts'

afterAll(cleanupTemp)

// web/types/api.d.ts is written by hand for the type check of the dashboard's scripts. Each of
// its interfaces names, with @answer, the response schema it mirrors; here every one of them is
// compared with that schema in the live OpenAPI document: the same field names, the same ones
// optional. A field added to, renamed in or dropped from an answer fails here until the types
// follow it.

const FILE = join(import.meta.dir, '../../web/types/api.d.ts')

type Fields = Record<string, 'required' | 'optional'>
interface Answer { type: string; method: string; path: string; status: string; at: string }
interface Schema { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[] }

// Interfaces of the file: their own and inherited fields, and their @answer tags.
function readTypes() {
  const source = ts.createSourceFile(FILE, readFileSync(FILE, 'utf8'), ts.ScriptTarget.Latest, true)
  const declared = new Map<string, { fields: Fields; bases: string[] }>()
  const answers: Answer[] = []
  for (const node of source.statements) {
    if (!ts.isInterfaceDeclaration(node)) continue
    const name = node.name.text
    const fields: Fields = {}
    for (const member of node.members) {
      if (ts.isPropertySignature(member)) fields[member.name.getText(source)] = member.questionToken ? 'optional' : 'required'
    }
    const bases = (node.heritageClauses ?? []).flatMap((c) => c.types.map((t) => t.expression.getText(source)))
    declared.set(name, { fields, bases })
    for (const tag of ts.getJSDocTags(node)) {
      if (tag.tagName.text !== 'answer') continue
      const [method, path, status, at = ''] = String(tag.comment ?? '').trim().split(/\s+/)
      answers.push({ type: name, method, path, status, at })
    }
  }
  const fieldsOf = (name: string): Fields => {
    const d = declared.get(name)
    if (!d) throw new Error(`${name} is not an interface of web/types/api.d.ts`)
    return Object.assign({}, ...d.bases.map(fieldsOf), d.fields)
  }
  return { names: [...declared.keys()], answers, fieldsOf }
}

// The object schema at `at` ("server", "servers[].players") inside a response body's schema; a
// nullable object or a union is looked through to its object branch.
function schemaAt(body: Schema, at: string): Schema {
  const object = (s: Schema): Schema => s.properties ? s : s.anyOf?.find((b) => b.properties) ?? s
  let s = object(body)
  for (const step of at ? at.split('.') : []) {
    const list = step.endsWith('[]')
    const next = s.properties?.[list ? step.slice(0, -2) : step]
    if (!next) throw new Error(`no "${step}" in the schema`)
    s = object(list ? next.items ?? {} : next)
  }
  return s
}

const schemaFields = (s: Schema): Fields =>
  Object.fromEntries(Object.keys(s.properties ?? {}).map((k) => [k, s.required?.includes(k) ? 'required' : 'optional']))

test('every interface of web/types/api.d.ts has the fields of the API answer it names', async () => {
  const app = await testApp(testRuntime())
  const doc = await (await call(app, 'GET', '/api/docs/json')).json() as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>
  }
  const { names, answers, fieldsOf } = readTypes()
  // Every interface says which answer it is; none is left unchecked.
  expect(names.filter((n) => !answers.some((a) => a.type === n))).toEqual([])
  expect(answers.length).toBeGreaterThan(30)
  for (const a of answers) {
    const where = `${a.type}: ${a.method} ${a.path} ${a.status} ${a.at}`.trim()
    const body = doc.paths[a.path]?.[a.method.toLowerCase()]?.responses[a.status]?.content?.['application/json']?.schema
    expect({ where, found: body !== undefined }).toEqual({ where, found: true })
    expect({ where, fields: fieldsOf(a.type) }).toEqual({ where, fields: schemaFields(schemaAt(body!, a.at)) })
  }
})
