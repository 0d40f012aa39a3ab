import { describe, expect, it } from 'vitest'
import { userKeyVariables, zeroKeyEnv } from './keys.js'

describe('zeroKeyEnv', () => {
  const env = {
    BRAVE_API_KEY: 'k',
    BRAVE_API_URL: 'http://127.0.0.1:1/brave',
    GITHUB_TOKEN: 't',
    SEARXNG_URL: 'http://127.0.0.1:1/searxng',
    DUCKDUCKGO_URL: 'http://127.0.0.1:1/duckduckgo',
  }

  it('names the keys, tokens and the SearXNG instance a new user would not have', () => {
    expect(userKeyVariables(env)).toEqual(['BRAVE_API_KEY', 'GITHUB_TOKEN', 'SEARXNG_URL'])
  })

  it('keeps only the base URLs', () => {
    expect(zeroKeyEnv(env)).toEqual({
      BRAVE_API_URL: 'http://127.0.0.1:1/brave',
      DUCKDUCKGO_URL: 'http://127.0.0.1:1/duckduckgo',
    })
  })
})
