// NuVotifier reads its config.yml with SnakeYAML, a YAML 1.1 reader: a plain (unquoted) scalar
// that looks like a number, a boolean, null or a date is read as one. A token such as
// 0x1234567890abcdef or 1_000_000_000_000_000 would become a number, the listener would sign
// with its decimal text, and no vote would ever be accepted. So a value is written plain only
// when every YAML 1.1 reader takes it for a string, and in double quotes otherwise.

// The implicit types of the YAML 1.1 type repository (yaml.org/type): bool, int, float, null,
// timestamp, merge, value (and the yaml type's !, & and *, which cannot start a plain scalar).
const YAML_11_TYPES = [
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^[-+]?0b[0-1_]+$/, // int, base 2
  /^[-+]?0[0-7_]+$/, // int, base 8
  /^[-+]?(?:0|[1-9][0-9_]*)$/, // int, base 10
  /^[-+]?0x[0-9a-fA-F_]+$/, // int, base 16
  /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/, // int, base 60
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9.]*(?:[eE][-+][0-9]+)?$/, // float, base 10
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/, // float, base 60
  /^[-+]?\.(?:inf|Inf|INF)$/, // float, infinity
  /^\.(?:nan|NaN|NAN)$/, // float, not a number
  /^(?:~|null|Null|NULL|)$/,
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, // timestamp, date only
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*Z|[-+][0-9]{1,2}(?::[0-9]{2})?)?$/,
  /^<<$/, // merge
  /^=$/, // value
]

// Real readers take more for a number than the repository says. SnakeYAML's float, tried on
// scalars starting with one of -+0123456789., also matches digits without a dot and an exponent
// without a sign: 0123456789012345 and 1e5 are floats there, and +_ fails to load. eemeli's yaml
// in 1.1 mode reads any digit run as an int and an exponent alone (e5) as a float. Quoting
// those too costs nothing.
const READER_NUMBERS = [
  /^(?=[-+0-9.])[-+]?(?:\.[0-9]+|[0-9_]+(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
]

// Characters that never make a plain scalar anything but text in a block mapping: no indicator
// (: # , [ ] { } & * ! | > ' " % @ `), no space. Anything else is quoted rather than analysed.
// A lone "-" is a sequence entry, not a scalar.
const PLAIN_SAFE = /^[A-Za-z0-9_.+\/=-]+$/

// Whether a YAML 1.1 reader takes `text`, written unquoted, for exactly this string.
export function readsAsPlainString(text: string): boolean {
  if (!PLAIN_SAFE.test(text) || text === '-') return false
  return !YAML_11_TYPES.some((re) => re.test(text)) && !READER_NUMBERS.some((re) => re.test(text))
}

// `text` as a YAML scalar: plain when that reads back as the same string, else double-quoted
// (JSON's escapes are a subset of YAML's double-quoted ones).
export const yamlScalar = (text: string): string => (readsAsPlainString(text) ? text : JSON.stringify(text))
