// One config file: parsed, checked against the schema entry by entry, and its problems described.
import { FileNotReadError, readBoundedTextFileSync } from './bounded-file.js'
import { locateJsonError } from './_json-error.js'
import { PLUGIN_SPECIFIER_ALLOWED } from './_plugin-specifier.js'
import {
  type ConfigFile,
  configFileSchema,
  type ConfigProblem,
  type ConfigService,
  EVERY_SERVICE,
  type LoadedConfigFile,
  toConfigError,
} from './_config-shared.js'
import { splitApiKeys } from './api-keys.js'

const ENTRY_ALLOWED =
  'a key string, or an object with string fields apiKey (or a list of keys), apiUrl, model, token, like {"apiKey": "...", "apiUrl": "https://..."} or {"apiKey": ["key1", "key2"]}'

function schemaProblem(issues: readonly Issue[], file: string, services: readonly ConfigService[]): ConfigProblem {
  const issue = deepestIssue(issues)
  const field = issue?.path.map(String).join('.') || '(root)'
  const allowed =
    field === '(root)'
      ? `a JSON object keyed by service (a provider id or github, plus "plugins", a list of packages, and "keyless", true or false), each ${ENTRY_ALLOWED}`
      : issue?.path[0] === 'plugins'
        ? `a list of ${PLUGIN_SPECIFIER_ALLOWED}`
        : issue?.path[0] === 'keyless'
          ? 'true or false (false turns keyless sources off)'
          : issue && issue.path.length > 1
            ? issue.path[1] === 'apiKey'
              ? 'a key string or a list of key strings'
              : 'a string'
            : ENTRY_ALLOWED
  return {
    kind: 'file_schema',
    severity: 'error',
    message: `Config file ${file}: field \`${field}\` is invalid (${issue?.message ?? 'unexpected value'}); expected ${allowed}.`,
    services,
    file,
    field,
  }
}

/**
 * Validates a parsed config file. Pure: throws `ConfigError` naming the file and the field.
 */
export function validateConfigFile(data: unknown, file: string): ConfigFile {
  const parsed = configFileSchema().safeParse(data)
  if (parsed.success) return parsed.data
  throw toConfigError(schemaProblem(parsed.error.issues, file, EVERY_SERVICE))
}

type Issue = { path: PropertyKey[]; message: string; errors?: Issue[][] }

// A union reports one issue at the union's path; the useful one is the deepest inside its branches.
function deepestIssue(issues: readonly Issue[], prefix: PropertyKey[] = []): Issue | undefined {
  let best: Issue | undefined
  for (const issue of issues) {
    const here = { ...issue, path: [...prefix, ...issue.path] }
    const nested = issue.errors?.flatMap((branch) => deepestIssue(branch, here.path) ?? [])
    for (const candidate of [here, ...(nested ?? [])])
      if (!best || candidate.path.length > best.path.length) best = candidate
  }
  return best
}

function parseConfigText(text: string, file: string): LoadedConfigFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    const at = locateJsonError(text)
    const where = at ? ` at line ${at.line}, column ${at.column}: ${at.problem}` : ''
    return {
      problems: [
        {
          kind: 'file_syntax',
          severity: 'error',
          message: `Config file ${file} is not valid JSON${where}.`,
          services: EVERY_SERVICE,
          file,
          ...(at && { line: at.line, column: at.column }),
        },
      ],
    }
  }
  const whole = configFileSchema().safeParse(data)
  if (whole.success) return { data: whole.data, problems: [] }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { problems: [schemaProblem(whole.error.issues, file, EVERY_SERVICE)] }
  const usable: Record<string, unknown> = { ...data }
  const problems: ConfigProblem[] = []
  for (const service of Object.keys(usable)) {
    const one = configFileSchema().safeParse({ [service]: usable[service] })
    if (one.success) continue
    const everyService = service === 'plugins' || service === 'keyless'
    problems.push(schemaProblem(one.error.issues, file, everyService ? EVERY_SERVICE : [service]))
    delete usable[service]
  }
  return { data: configFileSchema().parse(usable), problems }
}

function readProblem(file: string, error: unknown): ConfigProblem {
  const why =
    error instanceof FileNotReadError
      ? `: ${error.reason}`
      : ` (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`
  return {
    kind: 'file_unreadable',
    severity: 'error',
    message: `Config file ${file} cannot be read${why}.`,
    services: EVERY_SERVICE,
    file,
  }
}

// Keys, URLs, models and a plugins list: a config file is a few KiB; a path to something else must not be read whole.
const MAX_CONFIG_FILE_BYTES = 1024 * 1024

export function loadConfigFile(file: string): LoadedConfigFile | undefined {
  let text: string
  try {
    text = readBoundedTextFileSync(file, MAX_CONFIG_FILE_BYTES)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    return { problems: [readProblem(file, error)] }
  }
  return parseConfigText(text, file)
}

/** Reads and validates a config file; a missing file is `undefined`, a malformed one a `ConfigError`. */
export function readConfigFile(file: string): ConfigFile | undefined {
  const loaded = loadConfigFile(file)
  if (!loaded) return undefined
  const first = loaded.problems[0]
  if (first) throw toConfigError(first)
  return loaded.data
}

export function fileValue(file: ConfigFile, service: string, field: 'apiKey' | 'apiUrl' | 'model'): string | undefined {
  const value = file[service]
  if (value === undefined || Array.isArray(value) || typeof value === 'boolean') return undefined
  if (typeof value === 'string') return field === 'apiKey' ? value || undefined : undefined
  const raw = field === 'apiKey' ? (value.apiKey ?? value.token) : value[field]
  // A pool listed in the file reads like one in an env variable: `key1,key2`.
  if (Array.isArray(raw)) return splitApiKeys(raw).join(',') || undefined
  return raw || undefined
}
