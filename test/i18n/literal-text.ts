import ts from 'typescript'

// The static check behind test/i18n/no-literal-text.test.ts: the words a person reads on a page
// come from the catalogs, never from a string written in a template. It reads the source with
// TypeScript's parser and reports, with their line:
// - in html`` templates (src/pages, the vote page), any letters in the text between tags and in
//   the attributes people read or hear (title, alt, aria-label, placeholder), outside <code>;
// - in the same way, the text of an HTML file (web/dashboard/index.html, {{…}} being the
//   catalog's);
// - anywhere else, a string that reads as language (two words, a capitalised word, a sentence's
//   end), and any letters at all where text is shown: a child of h() (the dashboard's DOM),
//   textContent, a label, hint, title or confirmation, announce(), setTitle(), window.confirm().
// Not text: catalog keys (the first argument of t() and its kin), selectors, URLs and paths,
// event and attribute names, class names, comparisons, the OpenAPI `detail` of routes (the API
// reference is English), error constructors (API messages stay English; pages and the dashboard
// say them from the catalog by code and field), and whatever is inside a <code> element.

export interface Finding { file: string; line: number; text: string }

// Calls whose arguments are never shown as they are.
const NON_TEXT_CALLS = new Set([
  't', 'tt', 'tn', 'tp', 'tnp', 'find', 'has', 'parts', 'countParts', 'countHtml', 'n',
  'querySelector', 'querySelectorAll', 'closest', 'matches', 'getElementById', 'addEventListener', 'removeEventListener',
  'getAttribute', 'removeAttribute', 'hasAttribute', 'createElement', 'createTextNode', 'fetch', 'get', 'post', 'put', 'patch', 'del', 'api',
  'putFile', 'serverPath', 'userPath', 'serverHref', 'invalidParameter', 'notFound', 'conflict', 'forbidden', 'unauthenticated',
  'Error', 'ApiError', 'Unavailable', 'startsWith', 'endsWith', 'includes', 'replace', 'replaceAll', 'split', 'join', 'test', 'match',
  'matchAll', 'set', 'delete', 'URL', 'URLSearchParams', 'DateTimeFormat', 'NumberFormat', 'stylesheet', 'newId', 'escape', 'debug',
  'info', 'warn', 'error', 'log', 'setItem', 'getItem', 'pushState', 'replaceState', 'require', 'resolve', 'Glob', 'Response', 'Headers',
  'withLanguage', 'switchLanguageHref', 'pageTranslator', 'translatorFor', 'pageText', 'catalogJson', 'setTimeout', 'padStart',
])
// Calls whose first argument only is a name (the attribute's; the value after it may be read).
const NAME_FIRST_CALLS = new Set(['setAttribute', 'toggleAttribute'])
// Properties whose value is not read by people (or is English on purpose: the OpenAPI detail).
const NON_TEXT_PROPS = new Set([
  'class', 'className', 'id', 'type', 'href', 'src', 'name', 'role', 'rel', 'autocomplete', 'inputmode', 'for', 'dataset', 'method',
  'headers', 'accept', 'value', 'spellcheck', 'stroke', 'fill', 'dash', 'width', 'height', 'detail', 'datetime', 'download', 'lang',
  'hreflang', 'credentials', 'cache', 'mode', 'field', 'code', 'path', 'tab', 'content-type', 'cache-control', 'location', 'vary',
  'aria-describedby', 'aria-controls', 'aria-current', 'aria-live', 'aria-pressed', 'aria-hidden', 'aria-labelledby', 'tabindex',
  'maxLength', 'pattern', 'error', 'format', 'timeZone', 'theme', 'channel', 'status', 'action', 'slug', 'scope',
])
// Properties and calls whose value is shown: any letters there are text.
const VISIBLE_PROPS = new Set(['title', 'alt', 'aria-label', 'ariaLabel', 'placeholder', 'label', 'hint', 'legend', 'caption', 'confirmText', 'busyLabel', 'textContent', 'innerText'])
const VISIBLE_CALLS = new Set(['announce', 'setTitle', 'confirm', 'alert', 'prompt'])
const VISIBLE_HTML_ATTRIBUTES = /\b(?:title|alt|aria-label|placeholder)="([^"]*)"/g
const WORD = /[A-Za-zÀ-ÖØ-öø-ÿ]{2,}/
const LETTERS = /[A-Za-zÀ-ÖØ-öø-ÿ]/

// Addresses, paths, host names and file names are not words.
const withoutAddresses = (text: string) =>
  text.replace(/https?:\/\/\S+|\/[\w./{}:?=&%*-]*|\b[\w-]+(?:\.[\w-]+)+\b/g, ' ')

// Two words, or a capitalised word: language, whatever the context.
export function readsAsLanguage(text: string): boolean {
  const t = withoutAddresses(text)
  return WORD.test(t) && (/[A-Za-zÀ-ÿ]{2,}[ \u00a0]+[A-Za-zÀ-ÿ]{2,}/.test(t) || /(?:^|[^\w-])[A-ZÀ-Ý][a-zà-ÿ]+/.test(t))
}

// Words where text is shown.
const hasWords = (text: string) => WORD.test(withoutAddresses(text))

// Text a person reads in a piece of HTML: between tags (outside <code>) and in the attributes read
// aloud or shown; `\0` stands for an interpolation.
export function htmlText(markup: string): string[] {
  // A fragment of attributes, interpolated into a tag (html` selected`, html` data-x="${v}"`).
  if (/^\s+(?:[\w:-]+(?:="[^"]*")?\s*)+$/.test(markup)) return [...markup.matchAll(VISIBLE_HTML_ATTRIBUTES)].map((a) => a[1].replace(/\0/g, ' ').trim()).filter(hasWords)
  const found: string[] = []
  for (const m of markup.matchAll(/<[^>]*>/g)) for (const a of m[0].matchAll(VISIBLE_HTML_ATTRIBUTES)) found.push(a[1])
  const text = markup.replace(/<code\b[^>]*>[\s\S]*?<\/code>/g, ' ').replace(/<[^>]*>/g, ' ').replace(/&#?\w+;/g, ' ')
  found.push(...text.split('\0'))
  return found.map((s) => s.replace(/\0/g, ' ').trim()).filter((s) => LETTERS.test(s) && hasWords(s))
}

const calleeName = (call: ts.CallExpression | ts.NewExpression): string => {
  const e = call.expression
  if (ts.isIdentifier(e)) return e.text
  if (ts.isPropertyAccessExpression(e)) return e.name.text
  return ''
}
const propName = (name: ts.PropertyName): string =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) ? name.text : ''

type Context = 'none' | 'visible' | 'code'

// Where a string stands: not text at all (null), text for sure ('visible'), inside a <code>
// ('code'), or somewhere its wording decides ('none').
function contextOf(node: ts.Node): Context | null {
  let child: ts.Node = node
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isLiteralTypeNode(parent) || ts.isImportTypeNode(parent)) return null
    if (ts.isCaseClause(parent) && parent.expression === child) return null
    if (ts.isBinaryExpression(parent) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken,
      ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken, ts.SyntaxKind.InKeyword].includes(parent.operatorToken.kind)) return null
    if (ts.isElementAccessExpression(parent) && parent.argumentExpression === child) return null
    if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name === child) return null
    if (ts.isPropertyAssignment(parent) && parent.initializer === child) {
      const name = propName(parent.name)
      if (NON_TEXT_PROPS.has(name)) return null
      if (VISIBLE_PROPS.has(name)) return 'visible'
    }
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === child
      && ts.isPropertyAccessExpression(parent.left) && VISIBLE_PROPS.has(parent.left.name.text)) return 'visible'
    if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
      const name = calleeName(parent)
      const args = parent.arguments ?? ts.factory.createNodeArray()
      const index = args.indexOf(child as ts.Expression)
      if (ts.isPropertyAccessExpression(parent.expression) && ['console', 'log'].includes(parent.expression.expression.getText())) return null
      // The nearest call the string is given to decides; an outer h() does not see into another
      // function's arguments.
      if (index >= 0) {
        if (NON_TEXT_CALLS.has(name)) return null
        if (NAME_FIRST_CALLS.has(name) && index === 0) return null
        if (VISIBLE_CALLS.has(name)) return 'visible'
        if (name === 'h') {
          if (index === 0 || index === 1) return null
          const tag = args[0]
          return ts.isStringLiteral(tag) && ['code', 'pre', 'kbd', 'samp'].includes(tag.text) ? 'code' : 'visible'
        }
        return 'none'
      }
    }
  }
  return 'none'
}

export function findLiteralText(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS)
  const found: Finding[] = []
  const report = (node: ts.Node, text: string) => found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, text })
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'html') {
      const t = node.template
      const markup = ts.isNoSubstitutionTemplateLiteral(t) ? t.text : [t.head.text, ...t.templateSpans.map((s) => s.literal.text)].join('\0')
      for (const text of htmlText(markup)) report(node, text)
      if (!ts.isNoSubstitutionTemplateLiteral(t)) t.templateSpans.forEach((s) => visit(s.expression))
      return
    }
    let text: string | null = null
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text
    else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ')
    if (text !== null) {
      const context = contextOf(node)
      // A string holding tags is markup: its text nodes and read attributes are what counts.
      if (context !== null && context !== 'code' && text.includes('<')) for (const t of htmlText(text)) report(node, t)
      else if (context !== null && context !== 'code' && (readsAsLanguage(text) || (context === 'visible' && hasWords(text)))) report(node, text.trim())
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

export function findHtmlFileText(file: string, source: string): Finding[] {
  const lines = source.split('\n')
  return lines.flatMap((line, i) => htmlText(line.replace(/\{\{[^}]*\}\}/g, '\0')).map((text) => ({ file, line: i + 1, text })))
}
