// What is configured, as reports show it: never any part of a key.
import type { ConfigService, ConfigSource, ResolvedConfig, ServiceConfig } from './_config-shared.js'
import { redactUrl } from './_config-url.js'
import { apiKeyLabel } from './api-keys.js'

export interface ServiceDescription {
  name: ConfigService
  configured: boolean
  /** `set (N chars)`, `2 keys: key #1 (…a1b2), key #2 (…c3d4)` for a pool, or null: never any part of a key. */
  key: string | null
  /** How reports name each key of the pool (`key #1 (…a1b2)`); empty when none is configured. */
  keyLabels: string[]
  keySource: ConfigSource | null
  /** Absent when the service has none (a source that speaks no HTTP). */
  baseUrl?: string
  baseUrlSource: ConfigSource
  model?: string
}

/** Lists what is configured (the services in resolution order, then GitHub unless it is one), keys redacted. */
export function describeConfig(config: ResolvedConfig): ServiceDescription[] {
  const github = 'github' in config.services ? [] : [['github', config.github] as const]
  return [...Object.entries(config.services), ...github].map(([name, s]) => ({
    name,
    configured: Boolean(s.apiKey),
    key: describeKeys(s),
    keyLabels: (s.apiKeys ?? []).map((key, i) => apiKeyLabel(i, key)),
    keySource: s.apiKeySource ?? null,
    ...(s.baseUrl !== undefined && { baseUrl: redactUrl(s.baseUrl) }),
    baseUrlSource: s.baseUrlSource,
    ...(s.model !== undefined && { model: s.model }),
  }))
}

function describeKeys(service: ServiceConfig): string | null {
  const keys = service.apiKeys ?? (service.apiKey ? [service.apiKey] : [])
  if (keys.length === 0) return null
  if (keys.length === 1) return `set (${keys[0]!.length} chars)`
  return `${keys.length} keys: ${keys.map((key, i) => apiKeyLabel(i, key)).join(', ')}`
}
