import type { ParsedProviderRequest } from '@search-layer/core'

// Types more than one of the mapping files needs, in a module of their own so those files never import each other
// for them.

export interface GrokBuildSettings {
  model: string
  now: Date
}

export interface GrokMapOptions {
  model: string
  /** The request's num and domain filters; results are capped and filtered to match. */
  request?: Pick<ParsedProviderRequest, 'num' | 'includeDomains' | 'excludeDomains'>
  headers?: Readonly<Record<string, string>>
}

export interface Cited {
  url: string
  title: string | null | undefined
  text: string
  start?: number | null
  end?: number | null
}
