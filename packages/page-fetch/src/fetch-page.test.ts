import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { textPdf } from '../test/pdf-build.js'
import { fetchPage } from './index.js'

const emu = useEmulator({ resetEachTest: false })
const open = { allowPrivateHosts: true }

describe('fetchPage', () => {
  it('turns the emulator article into readable markdown with metadata and content links', async () => {
    const page = await fetchPage(`${emu.urls.pages}/article`, open)
    expect(page).toMatchObject({
      url: `${emu.urls.pages}/article`,
      finalUrl: `${emu.urls.pages}/article`,
      title: 'Structured concurrency in async Rust: a field guide',
      byline: 'Jane Doe',
      lang: 'en',
      publishedAt: '2026-11-18T09:12:00.000Z',
      excerpt: 'How to keep async Rust tasks from leaking: scopes, JoinSet, cancellation and timeouts.',
      readerable: true,
    })
    expect(page.markdown).toContain('## Cancellation safety')
    expect(page.markdown).toContain('[tokio#1879](https://github.com/tokio-rs/tokio/issues/1879)')
    expect(page.markdown).not.toMatch(/dataLayer|cookie|Newsletter|Related posts|Privacy/)
    expect(page.links).toContainEqual({
      url: 'https://github.com/tokio-rs/tokio/issues/1879',
      text: 'tokio#1879',
      context:
        'Every .await is a potential cancellation point. Read the select! tutorial and the discussion in tokio#1879 before using select! in a loop.',
    })
    expect(page.links.map((l) => l.url)).toContain(`${new URL(emu.url).origin}/posts/cancellation`)
    expect(page.links.map((l) => l.url)).not.toContain(`${new URL(emu.url).origin}/about`)
  })

  it('decodes the GBK page and extracts it in Chinese', async () => {
    const page = await fetchPage(`${emu.urls.pages}/zh-gbk`, open)
    expect(page).toMatchObject({
      title: 'Rust 异步编程实战：从零实现一个异步运行时 - 技术博客',
      byline: '王小明',
      lang: 'zh-CN',
      publishedAt: '2026-10-12T00:30:00.000Z',
    })
    expect(page.markdown).toContain('## 实现一个最小执行器')
    expect(page.links.map((l) => [l.url, l.text])).toEqual([
      ['https://github.com/tokio-rs/tokio', 'tokio-rs/tokio'],
      ['https://rust-lang.github.io/async-book/', 'Async Book'],
    ])
  })

  it('reports the final URL after redirects and resolves links against it', async () => {
    emu.pages.set('/docs/guide/intro', {
      body: '<html><head><title>Intro</title></head><body><p>Read <a href="../api">the API</a>.</p></body></html>',
    })
    const start = `${emu.urls.pages}/redirect?to=${encodeURIComponent('/pages/docs/guide/intro')}`
    const page = await fetchPage(start, open)
    expect(page.url).toBe(start)
    expect(page.finalUrl).toBe(`${emu.urls.pages}/docs/guide/intro`)
    expect(page.links[0]?.url).toBe(`${emu.urls.pages}/docs/api`)
  })

  it.each([
    [
      'application/json',
      '{"name":"search-layer","homepage":"https://search-layer.example/"}',
      'search-layer',
      '```json',
    ],
    [
      'text/markdown; charset=utf-8',
      '# Changelog\n\n- fixed [#12](https://github.com/o/r/pull/12)',
      'Changelog',
      '# Changelog',
    ],
    ['text/plain', 'Plain notes\nsee https://example.org/notes.', 'Plain notes', 'Plain notes'],
  ])('makes a page of a %s body', async (contentType, body, title, markdownStart) => {
    emu.pages.set('/typed', { body, contentType })
    const page = await fetchPage(`${emu.urls.pages}/typed`, open)
    expect(page.title).toBe(title)
    expect(page.markdown.startsWith(markdownStart)).toBe(true)
    expect(page.links).toHaveLength(1)
    expect(page.readerable).toBe(false)
  })

  it('rejects with the FetchError of the fetch', async () => {
    await expect(fetchPage(`${emu.urls.pages}/article`, { env: {} })).rejects.toMatchObject({
      name: 'FetchError',
      kind: 'blocked',
    })
    await expect(fetchPage(`${emu.urls.pages}/binary`, open)).rejects.toMatchObject({ kind: 'unsupported_type' })
    await expect(fetchPage(`${emu.urls.pages}/not-found`, open)).rejects.toMatchObject({ kind: 'http', status: 404 })
  })

  describe('PDF', () => {
    const form = 'IRS Form 1040-V (2013), a real PDF served by the emulator'

    it.each([
      ['application/pdf', '/form-1040-v.pdf'],
      ['application/octet-stream with a .pdf URL', '/download/form-1040-v.pdf'],
      ['application/pdf without .pdf in the URL', '/paper'],
    ])(
      `reads ${form} served as %s`,
      async (_label, path) => {
        const page = await fetchPage(`${emu.urls.pages}${path}`, { ...open, timeoutMs: 60_000 })
        expect(page.title).toBe('2013 Form 1040-V Department of the Treasury')
        expect(page.byline).toBe('SE:W:CAR:MP')
        expect(page.publishedAt).toBe('2014-01-02T13:00:54.000Z')
        expect(page.markdown.startsWith('<!-- page 1 -->\n\n2013 Form 1040-V Department of the Treasury\n')).toBe(true)
        expect(page.markdown.match(/<!-- page \d+ -->/g)).toEqual(['<!-- page 1 -->'])
        expect(page.text).toContain('What Is Form 1040-V')
        expect(page.text).toContain('Make your check or money order payable to “United\nStates Treasury.”')
      },
      90_000,
    )

    it('refuses a .pdf URL served as octet-stream whose bytes are not a PDF', async () => {
      emu.pages.set('/fake.pdf', { body: Buffer.from('MZ\x90\x00 not a pdf'), contentType: 'application/octet-stream' })
      await expect(fetchPage(`${emu.urls.pages}/fake.pdf`, open)).rejects.toMatchObject({
        kind: 'unsupported_type',
        message: expect.stringContaining('served as application/octet-stream, and its body is not a PDF'),
      })
    })

    it('keeps the byte cap: a PDF over maxBytes is too_large', async () => {
      await expect(fetchPage(`${emu.urls.pages}/form-1040-v.pdf`, { ...open, maxBytes: 10_000 })).rejects.toMatchObject(
        {
          kind: 'too_large',
        },
      )
    })

    it('fails a PDF without text as empty', async () => {
      const scan = textPdf([''])
      emu.pages.set('/scan.pdf', { body: scan, contentType: 'application/pdf' })
      await expect(fetchPage(`${emu.urls.pages}/scan.pdf`, { ...open, timeoutMs: 60_000 })).rejects.toMatchObject({
        kind: 'empty',
      })
    }, 90_000)
  })
})
