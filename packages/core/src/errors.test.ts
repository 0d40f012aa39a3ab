import { describe, expect, it } from 'vitest'
import { ConfigError, InputError, ProviderError, describesKeyRejection, isProviderError } from './errors.js'
import { redactSecrets } from './redact.js'

describe('ProviderError', () => {
  it.each([
    ['auth', false],
    ['quota', false],
    ['rate_limited', true],
    ['timeout', true],
    ['upstream', true],
    ['bad_response', false],
    ['network', true],
    ['config', false],
  ] as const)('kind %s defaults retryable=%s', (kind, retryable) => {
    const error = new ProviderError('x', { kind, provider: 'exa' })
    expect(error.retryable).toBe(retryable)
    expect(isProviderError(error)).toBe(true)
  })

  it('scrubs the given secret and well-known key shapes from the message', () => {
    const error = new ProviderError('bad key my-secret-value and tvly-abcdefgh12345 and Bearer abc.def.ghi', {
      kind: 'auth',
      secrets: ['my-secret-value'],
    })
    expect(error.message).not.toContain('my-secret-value')
    expect(error.message).not.toContain('tvly-abcdefgh12345')
    expect(error.message).not.toContain('abc.def.ghi')
    expect(JSON.stringify(error.toJSON())).not.toContain('my-secret-value')
  })

  it.each([
    ['ProviderError', (m: string) => new ProviderError(m, { kind: 'network', provider: 'foo' })],
    ['ConfigError', (m: string) => new ConfigError(m)],
    ['InputError', (m: string) => new InputError(m, [])],
  ])('%s drops the user:password@ of URLs in its message', (_name, make) => {
    const error = make('cannot reach https://bob:hunter22@proxy.example:8080/v1 (ECONNREFUSED)')
    expect(error.message).toBe('cannot reach https://proxy.example:8080/v1 (ECONNREFUSED)')
  })

  it('serialises without stack or cause', () => {
    const json = new ProviderError('boom', {
      kind: 'upstream',
      status: 503,
      provider: 'brave',
      cause: new Error('inner'),
    }).toJSON()
    expect(json).toEqual({ kind: 'upstream', message: 'boom', provider: 'brave', status: 503 })
  })
})

describe('redactSecrets', () => {
  it.each([
    ['sk-abcdefghijklmnop1234', 'sk-'],
    ['xai-abcdefghijklmnop', 'xai-'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123', 'ghp_'],
    ['https://x.test/?api_key=SECRET123&q=1', 'SECRET123'],
    ['token 0123456789abcdef', '0123456789abcdef'],
  ])('removes %s', (input, leaked) => {
    const out = redactSecrets(input)
    expect(out).toContain('[redacted]')
    expect(out.includes(leaked) && leaked !== 'sk-' && leaked !== 'xai-' && leaked !== 'ghp_').toBe(false)
    expect(out).not.toBe(input)
  })

  it('leaves ordinary text and short values alone', () => {
    expect(redactSecrets('rust async tutorial', ['abc'])).toBe('rust async tutorial')
  })

  it('ConfigError messages are scrubbed too', () => {
    expect(new ConfigError('key sk-abcdefghijklmnop99 is wrong').message).not.toContain('abcdefghijklmnop99')
  })
})

describe('describesKeyRejection', () => {
  it.each([
    // Recorded vendor answers (providers-*/test/fixtures/recorded): both came with HTTP 400.
    ['x-api-key header is invalid', true],
    ['Incorrect API key provided: ba***na. You can obtain an API key from https://console.x.ai.', true],
    ['The provided subscription token is invalid.', true],
    ['Invalid API key', true],
    ['Unauthorized: missing or invalid API key.', true],
    ['Authentication failed', true],
    ['API key budget exceeded', false],
    ['Your API key has run out of credits', false],
    ['numResults must be less than or equal to 100', false],
    ['Unable to validate request parameter(s)', false],
    ['Request rate limit exceeded for plan', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (text, expected) => {
    expect(describesKeyRejection(text)).toBe(expected)
  })
})
