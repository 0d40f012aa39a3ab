import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RESULT_LIMITS, checkProviderResponse, cleanText } from './check-results.js'
import { ProviderError } from './errors.js'

const result = (fields: Record<string, unknown>) => ({ title: 't', url: 'https://a.example/', snippet: 's', ...fields })

describe('checkProviderResponse', () => {
  it.each([
    ['javascript:alert(1)', 'bad_url'],
    ['JaVaScRiPt:alert(1)', 'bad_url'],
    [' javascript:alert(1)', 'bad_url'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'bad_url'],
    ['blob:https://a.example/1', 'bad_url'],
    ['mailto:x@a.example', 'bad_url'],
    ['//a.example/no-scheme', 'bad_url'],
    [42, 'bad_url'],
  ])('drops a result whose url is %j (%s)', (url, reason) => {
    const checked = checkProviderResponse('p', { results: [result({ url })] })
    expect(checked.results).toEqual([])
    expect(checked.rejected).toEqual({ [reason]: 1 })
  })

  it('drops a result whose URL is over the limit, keeps one at the limit', () => {
    const at = `https://a.example/${'p'.repeat(RESULT_LIMITS.url - 'https://a.example/'.length)}`
    const checked = checkProviderResponse('p', { results: [result({ url: at }), result({ url: `${at}p` })] })
    expect(checked.results.map((r) => r.url)).toEqual([at])
    expect(checked.rejected).toEqual({ url_too_long: 1 })
  })

  it('keeps a clean result as it was, tagged with the provider that was asked', () => {
    const clean = {
      title: 'Rust',
      url: 'https://a.example/x?y=1',
      snippet: 'Async',
      publishedAt: '2025-06-04T00:00:00.000Z',
      provider: 'p',
      rank: 3,
      providerScore: 0.5,
      extra: { favicon: 'x' },
    }
    expect(checkProviderResponse('p', { results: [clean] })).toEqual({ results: [clean], rejected: {} })
    expect(checkProviderResponse('q', { results: [clean] }).results[0]!.provider).toBe('q')
  })

  it('removes URL credentials, so `https://trusted.example@evil.example` cannot pass for another site', () => {
    const [checked] = checkProviderResponse('p', {
      results: [result({ url: 'https://trusted.example:pw@evil.example/login' })],
    }).results
    expect(checked!.url).toBe('https://evil.example/login')
  })

  it('gives defaults for a bad date, rank, score and extra', () => {
    const [checked] = checkProviderResponse('p', {
      results: [result({ publishedAt: 17, rank: 1.5, providerScore: Number.POSITIVE_INFINITY, extra: [1] })],
    }).results
    expect(checked).toEqual({
      title: 't',
      url: 'https://a.example/',
      snippet: 's',
      publishedAt: null,
      provider: 'p',
      rank: 1,
    })
  })

  it.each([undefined, null, {}, { results: 'x' }, { results: { 0: 'a' } }])(
    'throws a bad_response ProviderError for %j',
    (response) => {
      const error = (() => {
        try {
          checkProviderResponse('p', response as never)
        } catch (caught) {
          return caught
        }
      })()
      expect(error).toBeInstanceOf(ProviderError)
      expect(error).toMatchObject({ kind: 'bad_response', provider: 'p', retryable: false })
      expect((error as Error).message).toMatch(/^p returned no results list \(got .+\); expected an array$/)
    },
  )

  it('cleans the answer of controls but keeps its lines, and caps it', () => {
    const long = 'a'.repeat(RESULT_LIMITS.answer + 10)
    expect(checkProviderResponse('p', { results: [], answer: '# Title\n\n\u0000text\u202e' }).answer).toBe(
      '# Title\n\ntext',
    )
    expect(checkProviderResponse('p', { results: [], answer: long }).answer).toHaveLength(RESULT_LIMITS.answer)
    expect(checkProviderResponse('p', { results: [], answer: 7 }).answer).toBeUndefined()
  })
})

describe('cleanText', () => {
  it.each([
    ['<script>alert(1)</script>Title', 'Title'],
    ['<SCRIPT type="x">a<b>c</b></SCRIPT >Title<style>.x{}</style>', 'Title'],
    ['<img src=x onerror=alert(1)>Title', 'Title'],
    ['a\u0000b\u001bc\u007fd\u0085e', 'a b c d e'],
    ['bell &#7; and &#x202E;override', 'bell and override'],
    ['\u202eevil\u202c', 'evil'],
    [null, ''],
  ])('%j → %j', (input, expected) => expect(cleanText(input, 100)).toBe(expected))

  it('cuts to the limit with an ellipsis, never inside a surrogate pair', () => {
    expect(cleanText('abcdefgh', 5)).toBe('abcd…')
    const cut = cleanText(`abc${'😀'.repeat(5)}`, 6)
    expect(cut).toBe('abc😀…')
    expect(cut.length).toBeLessThanOrEqual(6)
  })

  it('never returns tags, controls or more than the limit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), fc.integer({ min: 2, max: 400 }), (s, max) => {
        const out = cleanText(`<b>${s}</b><script>${s}</script>`, max)
        return out.length <= max && !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(out)
      }),
    )
  })
})
