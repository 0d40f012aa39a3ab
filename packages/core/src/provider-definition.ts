import type { ServiceEnvVariables } from './_config-shared.js'
import type { PaceStore } from './pace-store.js'
import { z } from 'zod'
import { ConfigError } from './errors.js'
import type { Env, Provider } from './provider.js'
import { QUERY_FILTER_KINDS, type QueryFilterKind } from './query-operators.js'
import { ProviderNameSchema } from './schemas.js'
import { issueMessage } from './validate.js'

/**
 * What a source is good at. Listed strongest first in a definition: the engine fills a mode's slot with the
 * providers that list the slot's capability earliest (then by `priority`). `reference` is encyclopedic articles
 * (what X is); `qa` answered questions.
 */
export const PROVIDER_CAPABILITIES = ['web', 'news', 'code', 'qa', 'academic', 'answer', 'reference'] as const
export type ProviderCapability = (typeof PROVIDER_CAPABILITIES)[number]

/**
 * How searches use a source when the caller names no `sources`:
 * - `engine` (the default): a general web index; the modes (fast, deep, answer) draw on engines, and engines stand
 *   in for each other;
 * - `fallback`: a general index that needs no key (a public page, a self-hosted instance), searched only when no
 *   engine is configured;
 * - `vertical`: one site or one region (an encyclopedia, a Q&A site, a Chinese index), joining the searches whose
 *   intent or language asks for one of its capabilities. A vertical never stands in for an engine.
 */
export const PROVIDER_ROUTINGS = ['engine', 'fallback', 'vertical'] as const
export type ProviderRouting = (typeof PROVIDER_ROUTINGS)[number]

/** The environment variables a provider reads. */
export interface ProviderEnvVariables {
  /**
   * Variables holding the key, first wins; the first is the one "not configured" messages name. Default: none, and
   * a definition naming none is `keyless` unless it says otherwise.
   */
  apiKey?: readonly string[]
  /** The variable overriding the base URL, e.g. `BRAVE_API_URL`. Default: none (only options and the config file). */
  baseUrl?: string
  /** The variable choosing a model, for providers that take one (e.g. `GROK_MODEL`). */
  model?: string
}

/** Token bucket and concurrency a provider is held to by default (the engine's `rateLimits` override it). */
export interface ProviderRateLimit {
  perSecond: number
  burst: number
  maxConcurrent: number
}

/** What one call costs, for estimates and docs; `note` says how the vendor bills. */
export interface ProviderCostModel {
  usdPerCall?: number
  creditsPerCall?: number
  note?: string
}

/** What the engine hands `create()`: every field optional, keys are still read at call time. */
export interface ProviderCreateOptions {
  /** Where keys are read when the call context has none. */
  env?: Env
  /** Time allowed per attempt (ms). */
  timeoutMs?: number
  /** Retries after the first attempt for retryable failures. */
  retries?: number
  /** Set in answer mode: ask for the provider's written answer when it can give one. */
  includeAnswer?: boolean
  /** Where a self-paced provider takes its request slots (`processPaceStore` when absent); a server shares one. */
  pace?: PaceStore
}

/**
 * One search source, described once: every app, tool, message and doc reads these fields (with the defaults of
 * `PROVIDER_DEFINITION_DEFAULTS` applied by `resolveProviderDefinition`). Only `id`, `label`, `capabilities` and
 * `create` are required.
 */
export interface ProviderDefinition {
  /** Tags results and reports; the key in config files and `sources`. See `ProviderNameSchema`. */
  id: string
  /** Display name, e.g. `Brave Search`. */
  label: string
  /** Strongest first; see `PROVIDER_CAPABILITIES`. */
  capabilities: readonly ProviderCapability[]
  /** Builds the provider; `create().name` must equal `id`. */
  create(options?: ProviderCreateOptions): Provider
  /** The vendor's API documentation or sign-up page. Default: none. */
  docsUrl?: string
  /** The variables it reads. Default: none (a keyless source that takes its URL from options or the config file). */
  env?: ProviderEnvVariables
  /** The upstream base URL when neither options, env nor config file name another. Default: none (no HTTP). */
  defaultBaseUrl?: string
  /** The model when the provider takes one and none is configured. */
  defaultModel?: string
  /** Works without a key (`isConfigured` is then always true). Default: true exactly when `env.apiKey` is empty. */
  keyless?: boolean
  /** How searches use it; default `engine`. See `PROVIDER_ROUTINGS`. */
  routing?: ProviderRouting
  /**
   * The request filters this provider applies itself, through a native parameter or an operator in its query text
   * (see `QUERY_FILTER_KINDS`). The engine reports the others as stripped for this provider; it enforces what it can
   * check on the merged results either way. Default: none.
   */
  queryFilters?: readonly QueryFilterKind[]
  /** Lower comes first among providers that list a capability at the same position. Default 100 (after built-ins). */
  priority?: number
  /** Default one call a second, bursts of two, two at a time. */
  rateLimit?: ProviderRateLimit
  /**
   * How long a call typically takes (ms, the vendor's usual answer time): what the engine assumes until it has timed
   * the provider's own calls, so a first search already lets a quick engine stand in for a typically far slower one
   * (fast and answer modes) and starts the slowest call first. Default 1000 (a typical web search API).
   */
  typicalLatencyMs?: number
  /** Default `{}`: no cost known. */
  cost?: ProviderCostModel
}

/** The environment variables of a resolved definition: the key list is always there. */
export type ResolvedProviderEnv = ServiceEnvVariables

/**
 * A definition with every default applied (`resolveProviderDefinition`): what the registry, config, CLI, docs and
 * server read. `docsUrl`, `defaultBaseUrl`, `defaultModel` and the env `baseUrl`/`model` stay optional: absent means
 * the source has none.
 */
export type ResolvedProviderDefinition = Omit<
  ProviderDefinition,
  'env' | 'keyless' | 'routing' | 'queryFilters' | 'priority' | 'rateLimit' | 'typicalLatencyMs' | 'cost'
> & {
  env: ResolvedProviderEnv
  keyless: boolean
  routing: ProviderRouting
  queryFilters: readonly QueryFilterKind[]
  priority: number
  rateLimit: ProviderRateLimit
  typicalLatencyMs: number
  cost: ProviderCostModel
}

/** The values of the optional definition fields that have one (`keyless` follows `env.apiKey`). */
export const PROVIDER_DEFINITION_DEFAULTS = Object.freeze({
  routing: 'engine' as ProviderRouting,
  queryFilters: Object.freeze([]) as readonly QueryFilterKind[],
  priority: 100,
  rateLimit: Object.freeze({ perSecond: 1, burst: 2, maxConcurrent: 2 }) as ProviderRateLimit,
  typicalLatencyMs: 1000,
  cost: Object.freeze({}) as ProviderCostModel,
})

/** What config resolution and `defineProvider` read of a definition. */
export type ServiceDefinition = Pick<ProviderDefinition, 'id' | 'env' | 'defaultBaseUrl' | 'defaultModel' | 'keyless'>
/** A `ServiceDefinition` with its defaults applied (`resolveServiceDefinition`). */
export type ResolvedServiceDefinition = Pick<
  ResolvedProviderDefinition,
  'id' | 'env' | 'defaultBaseUrl' | 'defaultModel' | 'keyless'
>

// Resolved once per definition object: config readings cache by the resolved object, so it must not change identity.
const resolvedServices = new WeakMap<object, ResolvedServiceDefinition>()
const resolvedDefinitions = new WeakMap<object, ResolvedProviderDefinition>()

/** The service part of a definition with its defaults applied; the same object for the same definition. */
export function resolveServiceDefinition(definition: ServiceDefinition): ResolvedServiceDefinition {
  const known = resolvedServices.get(definition)
  if (known) return known
  const apiKey = definition.env?.apiKey ?? []
  const resolved: ResolvedServiceDefinition = {
    ...definition,
    env: { ...definition.env, apiKey },
    keyless: definition.keyless ?? apiKey.length === 0,
  }
  resolvedServices.set(definition, resolved)
  resolvedServices.set(resolved, resolved)
  return resolved
}

/**
 * `definition` with the defaults of its optional fields applied (see `PROVIDER_DEFINITION_DEFAULTS`): the one place
 * they are decided. Returns the same object for the same definition, and a resolved definition as it is.
 */
export function resolveProviderDefinition(definition: ProviderDefinition): ResolvedProviderDefinition {
  const known = resolvedDefinitions.get(definition)
  if (known) return known
  const d = PROVIDER_DEFINITION_DEFAULTS
  const resolved: ResolvedProviderDefinition = {
    ...definition,
    ...resolveServiceDefinition(definition),
    routing: definition.routing ?? d.routing,
    queryFilters: definition.queryFilters ?? d.queryFilters,
    priority: definition.priority ?? d.priority,
    rateLimit: definition.rateLimit ?? d.rateLimit,
    typicalLatencyMs: definition.typicalLatencyMs ?? d.typicalLatencyMs,
    cost: definition.cost ?? d.cost,
  }
  resolvedDefinitions.set(definition, resolved)
  resolvedDefinitions.set(resolved, resolved)
  resolvedServices.set(resolved, resolved)
  return resolved
}

// Config-file keys that are not providers. (`github` is a provider: its entry's token is also thread-fetch's.)
const RESERVED_IDS: readonly string[] = ['plugins', 'keyless']

// Built on first use: a search with only the built-in providers never validates a definition (see `trusted` below),
// and zod schema construction is a measurable part of the CLI's start-up.
let definitionShape: ReturnType<typeof buildDefinitionShape> | undefined

function buildDefinitionShape() {
  const positive = z.number().finite().positive()
  const variable = (example: string) =>
    z.string().regex(/^[A-Z][A-Z0-9_]*$/, `expected an environment variable name such as ${example}`)
  const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
  return z.object({
    id: ProviderNameSchema,
    label: z.string().min(1, 'must not be empty'),
    capabilities: z.array(z.enum(PROVIDER_CAPABILITIES)).min(1, 'list at least one capability'),
    create: z.custom<ProviderDefinition['create']>((v) => typeof v === 'function', 'expected a function'),
    docsUrl: httpUrl.optional(),
    env: z
      .object({
        apiKey: z.array(variable('FOO_API_KEY')).optional(),
        baseUrl: variable('FOO_API_URL').optional(),
        model: variable('FOO_MODEL').optional(),
      })
      .optional(),
    defaultBaseUrl: httpUrl.optional(),
    defaultModel: z.string().min(1).optional(),
    keyless: z.boolean().optional(),
    routing: z.enum(PROVIDER_ROUTINGS).optional(),
    queryFilters: z.array(z.enum(QUERY_FILTER_KINDS)).optional(),
    priority: z.number().finite().optional(),
    rateLimit: z
      .object({ perSecond: positive, burst: positive, maxConcurrent: z.number().int().positive() })
      .optional(),
    typicalLatencyMs: positive.optional(),
    cost: z
      .object({
        usdPerCall: z.number().nonnegative().optional(),
        creditsPerCall: z.number().nonnegative().optional(),
        note: z.string().optional(),
      })
      .optional(),
  })
}

/**
 * Checks that `value` is a usable `ProviderDefinition` (plug-ins arrive as `unknown`) and returns it with its defaults
 * applied. Throws `ConfigError` naming `origin`, the field and what is expected; a definition that says it is not
 * `keyless` must list key variables.
 */
export function validateProviderDefinition(value: unknown, origin: string): ResolvedProviderDefinition {
  definitionShape ??= buildDefinitionShape()
  const parsed = definitionShape.safeParse(value)
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `\`${i.path.map(String).join('.') || '(root)'}\` ${issueMessage(i)}`,
    )
    throw new ConfigError(`${origin} is not a valid provider definition: ${problems.join('; ')}.`, {
      field: String(parsed.error.issues[0]?.path[0] ?? ''),
    })
  }
  const definition = resolveProviderDefinition(value as ProviderDefinition)
  if (RESERVED_IDS.includes(definition.id))
    throw new ConfigError(
      `${origin}: provider id "${definition.id}" is reserved (config file keys ${RESERVED_IDS.join(', ')}).`,
      {
        field: 'id',
      },
    )
  if (!definition.keyless && definition.env.apiKey.length === 0)
    throw new ConfigError(
      `${origin} (provider "${definition.id}") lists no key variable in env.apiKey and is not keyless.`,
      {
        field: 'env.apiKey',
      },
    )
  return definition
}

/**
 * Validates a list of definitions and checks ids are unique. Throws `ConfigError` naming the duplicated id and where
 * each came from (`origins[i]` is where `definitions[i]` was loaded, e.g. a plug-in's package name). Definitions in
 * `trusted` (the built-in ones, validated by their own packages' tests) only get their defaults and the id check: validating
 * eleven of them cost ~5 ms of every CLI search's start-up.
 */
export function checkProviderDefinitions(
  definitions: readonly unknown[],
  origins: readonly string[] = [],
  { trusted }: { trusted?: ReadonlySet<unknown> } = {},
): ResolvedProviderDefinition[] {
  const seen = new Map<string, string>()
  return definitions.map((value, i) => {
    const origin = origins[i] ?? `providers[${i}]`
    const definition = trusted?.has(value)
      ? resolveProviderDefinition(value as ProviderDefinition)
      : validateProviderDefinition(value, origin)
    const first = seen.get(definition.id)
    if (first !== undefined)
      throw new ConfigError(
        `provider id "${definition.id}" is registered twice (${first} and ${origin}); each provider needs its own id.`,
        { field: 'id' },
      )
    seen.set(definition.id, origin)
    return definition
  })
}

/** The variable to set for a provider, as messages name it: `BRAVE_API_KEY`, or `XAI_API_KEY (or GROK_API_KEY)`. */
export function keyVariableHint(definition: ServiceDefinition, { alternates = false } = {}): string {
  const [first, ...rest] = resolveServiceDefinition(definition).env.apiKey
  if (!first) return '(no key needed)'
  return alternates && rest.length > 0 ? `${first} (or ${rest.join(', ')})` : first
}

/**
 * A zod schema for a provider id that must be one of `ids`; an unknown one is refused with the list of registered
 * ids (a malformed one with the id rule).
 */
export function registeredProviderIdSchema(ids: readonly string[]) {
  return ProviderNameSchema.refine((id) => ids.includes(id), {
    error: (issue) => `unknown provider "${String(issue.input)}"; registered providers: ${ids.join(', ')}`,
  })
}
