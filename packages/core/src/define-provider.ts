import { replayKeyFor } from './cassette.js'
import { type ConfigReading, type ServiceConfig, resolveServiceConfig } from './config.js'
import { ProviderError, isProviderError } from './errors.js'
import type { Env, Provider, ProviderContext } from './provider.js'
import { type ServiceDefinition, keyVariableHint, resolveServiceDefinition } from './provider-definition.js'
import type { ProviderResponse } from './response-schemas.js'
import { type ParsedProviderRequest, type ProviderRequest, ProviderRequestSchema } from './schemas.js'
import { formatIssues } from './validate.js'

/** Everything one provider call needs, resolved and validated by `defineProvider`. */
export interface ProviderCall {
  /** Read-only: a search hands all its providers the same frozen request per query (see `frozenRequest`). */
  request: Readonly<ParsedProviderRequest>
  /** The key (a missing key is a `config` error before `run`; empty for a keyless provider). */
  apiKey: string
  /** The service's resolved configuration (base URL, and the model and its source when it takes one). */
  service: ServiceConfig & { baseUrl: string }
  env: Env
  now: Date
  /**
   * Spread into `requestJson`/`requestText`: the combined abort signal, the deadline, the proxy env, the key to scrub,
   * and the caller's response and request-sent hooks and rate-limit retry choice.
   */
  http: {
    signal?: AbortSignal
    deadlineAt?: number
    env: Env
    secrets: string[]
    onResponse?: ProviderContext['onResponse']
    onRequestSent?: ProviderContext['onRequestSent']
    retryRateLimited?: boolean
  }
}

export interface DefineProviderOptions {
  /** The provider's definition (or its config part): its id names the provider, its env variables are read. */
  definition: ServiceDefinition
  /** Explicit settings from the factory's options; they win over env and config files. */
  overrides?: { apiKey?: string; baseUrl?: string; model?: string }
  /** Env used when the call context has none; default `process.env`. */
  env?: Env
  /** The vendor-specific part: build the request, call, map the response. */
  run(call: ProviderCall): Promise<ProviderResponse>
}

// A search asks each of its providers the same request per query. A frozen request (its lists frozen too) cannot
// change after it was checked, so it is validated once for all of them instead of once per provider call.
const validatedRequests = new WeakMap<ProviderRequest, ParsedProviderRequest>()

/**
 * A frozen copy of a provider request, its lists copied and frozen too: one request several providers can share
 * (`defineProvider` validates a frozen request once for all of them).
 */
export function frozenRequest<T extends ProviderRequest>(request: T): Readonly<T> {
  const copy = { ...request }
  for (const [key, value] of Object.entries(copy))
    if (Array.isArray(value)) (copy as Record<string, unknown>)[key] = Object.freeze([...value])
  return Object.freeze(copy)
}

const isDeepFrozen = (request: ProviderRequest) =>
  Object.isFrozen(request) && Object.values(request).every((value) => !Array.isArray(value) || Object.isFrozen(value))

function parseRequest(name: string, request: ProviderRequest): ParsedProviderRequest {
  const known = validatedRequests.get(request)
  if (known) return known
  const parsed = ProviderRequestSchema.safeParse(request)
  if (!parsed.success) {
    const issues = formatIssues(parsed.error)
      .map((i) => `${i.path}: ${i.message}`)
      .join('; ')
    throw new ProviderError(`${name} search request is invalid: ${issues}`, {
      kind: 'config',
      provider: name,
      retryable: false,
    })
  }
  if (!isDeepFrozen(request)) return parsed.data
  // Shared by every provider the request goes to: frozen like the request, so none can change another's.
  const shared = frozenRequest(parsed.data)
  validatedRequests.set(request, shared)
  return shared
}

/**
 * Whether a provider can be called under `env` and the config files: it needs no key, or one resolves (an invalid
 * configuration counts as not configured). `isConfigured` of `defineProvider`'s providers and of `lazyProvider`'s.
 */
export function isProviderConfigured(
  service: ServiceDefinition,
  env: Env,
  reading?: ConfigReading,
  overrides?: DefineProviderOptions['overrides'],
): boolean {
  const definition = resolveServiceDefinition(service)
  if (definition.keyless) return true
  try {
    const config = resolveServiceConfig(definition, {
      env,
      ...(overrides && { overrides: { [definition.id]: overrides } }),
      ...(reading && { reading }),
    })
    return Boolean(config.apiKey ?? replayKeyFor(definition.id, env))
  } catch {
    return false
  }
}

/**
 * Builds a `Provider` from its vendor-specific `run`: keys and URLs resolved at call time, the request validated,
 * signals combined, and anything that is not a `ProviderError` turned into one (`bad_response`) with the key scrubbed.
 */
export function defineProvider(options: DefineProviderOptions): Provider {
  const { overrides } = options
  const definition = resolveServiceDefinition(options.definition)
  const name = definition.id
  const { keyless } = definition
  const configFor = (env: Env, reading: ConfigReading | undefined): ProviderCall['service'] => {
    let service: ServiceConfig
    try {
      service = resolveServiceConfig(definition, {
        env,
        ...(overrides && { overrides: { [name]: overrides } }),
        ...(reading && { reading }),
      })
    } catch (error) {
      throw new ProviderError(`${name} configuration is invalid: ${(error as Error).message}`, {
        kind: 'config',
        provider: name,
        cause: error,
        secrets: [overrides?.apiKey],
      })
    }
    const { baseUrl } = service
    // A provider built on defineProvider speaks HTTP: without a base URL it has nowhere to send its request.
    if (baseUrl === undefined)
      throw new ProviderError(`${name} has no base URL: give its definition a defaultBaseUrl, or set one`, {
        kind: 'config',
        provider: name,
        retryable: false,
      })
    return { ...service, baseUrl }
  }
  const envOf = (env?: Env): Env => env ?? options.env ?? process.env

  return {
    name,
    isConfigured(env?: Env, reading?: ConfigReading): boolean {
      return isProviderConfigured(definition, envOf(env), reading, overrides)
    },
    async search(request, ctx: ProviderContext = {}) {
      let apiKey: string | undefined
      try {
        const parsedRequest = parseRequest(name, request)
        const env = envOf(ctx.env)
        const service = configFor(env, ctx.config)
        // Replaying cassettes needs no key: a CI without keys runs every provider it has recordings for.
        apiKey = ctx.apiKey ?? service.apiKey ?? replayKeyFor(name, env) ?? (keyless ? '' : undefined)
        if (apiKey === undefined)
          throw new ProviderError(
            `${name} is not configured: set ${keyVariableHint(definition, { alternates: true })} (or pass apiKey)`,
            {
              kind: 'config',
              provider: name,
              retryable: false,
            },
          )
        const signals = [parsedRequest.signal, ctx.signal].filter((s): s is AbortSignal => s !== undefined)
        const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
        return await options.run({
          request: parsedRequest,
          apiKey,
          service,
          env,
          now: ctx.now?.() ?? new Date(),
          http: {
            ...(signal && { signal }),
            ...(ctx.deadlineAt !== undefined && { deadlineAt: ctx.deadlineAt }),
            env,
            secrets: apiKey ? [apiKey] : [],
            ...(ctx.onResponse && { onResponse: ctx.onResponse }),
            ...(ctx.onRequestSent && { onRequestSent: ctx.onRequestSent }),
            ...(ctx.retryRateLimited === false && { retryRateLimited: false }),
          },
        })
      } catch (error) {
        if (isProviderError(error)) throw error
        // Last line of defence: whatever escaped the vendor code becomes a ProviderError with the key scrubbed.
        throw new ProviderError(
          `${name} search failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
          {
            kind: 'bad_response',
            provider: name,
            cause: error,
            secrets: apiKey ? [apiKey] : [],
          },
        )
      }
    },
  }
}
