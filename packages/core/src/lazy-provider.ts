import type { ConfigReading } from './config.js'
import { isProviderConfigured } from './define-provider.js'
import { ProviderError } from './errors.js'
import type { Env, Provider } from './provider.js'
import type { ServiceDefinition } from './provider-definition.js'

/**
 * A provider whose implementation loads with its first search: for a definition's `create`, so that a registry can
 * list every provider without loading each one's schemas and mapping (a search asks a few of them; a fresh CLI
 * process saves the rest, ≈ 2.5 ms). `isConfigured` answers from the definition, as `defineProvider`'s does;
 * `search` hands the call to the provider `load` resolves to, loaded once. `env` is the creator's, used when a call
 * gives none.
 */
export function lazyProvider(
  definition: ServiceDefinition,
  env: Env | undefined,
  load: () => Promise<Provider>,
): Provider {
  let loaded: Promise<Provider> | undefined
  const provider = () =>
    (loaded ??= load().catch((error: unknown) => {
      throw new ProviderError(`${definition.id} could not be loaded: ${(error as Error)?.message ?? String(error)}`, {
        kind: 'config',
        provider: definition.id,
        retryable: false,
        cause: error,
      })
    }))
  return {
    name: definition.id,
    isConfigured: (callEnv?: Env, reading?: ConfigReading) =>
      isProviderConfigured(definition, callEnv ?? env ?? process.env, reading),
    search: async (request, ctx) => (await provider()).search(request, ctx),
  }
}
