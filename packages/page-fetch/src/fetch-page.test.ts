import { type Emulator, startEmulator } from '@search-layer/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchPage } from './index.js'

let emu: Emulator
const open = { allowPrivateHosts: true }

beforeAll(async () => {
  emu = await startEmulator()
})
afterAll(async () => {
  await emu.close()
})

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
})
