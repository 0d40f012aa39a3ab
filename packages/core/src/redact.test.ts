import { describe, expect, it } from 'vitest'
import { redactSecrets, stripUrlCredentials, stripUrlCredentialsInText } from './redact.js'

describe('stripUrlCredentials', () => {
  it.each([
    ['https://user:pass@host.example/x', 'https://host.example/x'],
    ['https://user@host.example/x?q=1', 'https://host.example/x?q=1'],
    ['http://:secret@host.example:8080/', 'http://host.example:8080/'],
    ['redis://default:hunter22@cache.internal:6379/0', 'redis://cache.internal:6379/0'],
    ['https://host.example/no-credentials', 'https://host.example/no-credentials'],
  ])('%s → %s', (input, expected) => {
    expect(stripUrlCredentials(input)).toBe(expected)
    expect(stripUrlCredentials(new URL(input))).toBe(expected)
  })

  it('leaves the URL object it is given as it was', () => {
    const url = new URL('https://user:pass@host.example/x')
    expect(stripUrlCredentials(url)).toBe('https://host.example/x')
    expect(url.href).toBe('https://user:pass@host.example/x')
  })

  it('treats a string that is no URL as text', () => {
    expect(stripUrlCredentials('see https://u:p@x.example and more')).toBe('see https://x.example and more')
  })
})

describe('stripUrlCredentialsInText', () => {
  it.each([
    ['fetch https://user:pass@host.example/x now', 'fetch https://host.example/x now'],
    // WHATWG parsers take the last `@` before the host: so does the scrub, or `b:c` would stay.
    ['https://a@b:c@host.example/', 'https://host.example/'],
    [
      '{"url":"https://me:pw@host.example/a","to":"x@y.example"}',
      '{"url":"https://host.example/a","to":"x@y.example"}',
    ],
    ['ftp://anon:pw@files.example/f and mailto:x@y.example', 'ftp://files.example/f and mailto:x@y.example'],
    ['https://host.example/a@b', 'https://host.example/a@b'],
    ['https://host.example?x=me@y', 'https://host.example?x=me@y'],
    ['?url=https%3A%2F%2Fuser%3Apass%40host.example%2Fx', '?url=https%3A%2F%2Fhost.example%2Fx'],
    ['?url=https%3A%2F%2Fhost.example%2Fa%40b', '?url=https%3A%2F%2Fhost.example%2Fa%40b'],
    ['no urls here, just me@example.com', 'no urls here, just me@example.com'],
  ])('%s → %s', (input, expected) => expect(stripUrlCredentialsInText(input)).toBe(expected))
})

describe('redactSecrets', () => {
  it('removes URL credentials along with keys and secret parameters', () => {
    const text = 'GET https://bob:s3cr3tpass@api.example/v1?api_key=abcdef123456&password=hunter2&q=rust failed'
    const out = redactSecrets(text)
    expect(out).toBe('GET https://api.example/v1?api_key=[redacted]&password=[redacted]&q=rust failed')
    expect(out).not.toMatch(/bob|s3cr3tpass|hunter2|abcdef123456/)
  })
})
