import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROVIDER_DEFINITION_DEFAULTS } from '@search-layer/core'
import { loadProviderPlugins } from '@search-layer/core/config'
import { describe, expect, it } from 'vitest'
import { builtInProviders, createSearchLayer } from '../src/index.js'

// The four-field plug-in of docs/write-a-provider.md, taken from the page itself: the example readers copy is the one
// that is loaded and searched with here, so it cannot stop working unnoticed.
const DOC = new URL('../../../docs/write-a-provider.md', import.meta.url)

function documentedPlugin(): string {
  const page = readFileSync(DOC, 'utf8')
  const block = /<!-- four-field-plugin:start -->\n```js\n([\s\S]*?)```\n<!-- four-field-plugin:end -->/.exec(page)
  if (!block?.[1]) throw new Error('docs/write-a-provider.md has no four-field-plugin block')
  const dir = mkdtempSync(join(tmpdir(), 'sl-plugin-docs-'))
  const file = join(dir, 'bookmarks.mjs')
  writeFileSync(file, block[1])
  return file
}

describe('the four-field plug-in of the docs', () => {
  it('loads through the plug-in loader with the documented defaults', async () => {
    const [bookmarks, ...rest] = await loadProviderPlugins([documentedPlugin()])
    expect(rest).toEqual([])
    expect(bookmarks).toMatchObject({
      id: 'bookmarks',
      label: 'My bookmarks',
      capabilities: ['web'],
      env: { apiKey: [] },
      keyless: true,
      ...PROVIDER_DEFINITION_DEFAULTS,
    })
    expect(bookmarks).not.toHaveProperty('defaultBaseUrl')
  })

  it('searches through the engine, named as a source', async () => {
    const plugins = await loadProviderPlugins([documentedPlugin()])
    const home = mkdtempSync(join(tmpdir(), 'sl-plugin-docs-home-'))
    const layer = createSearchLayer({
      env: { HOME: home },
      providers: [...builtInProviders, ...plugins],
      cache: false,
      providerRetries: 0,
    })
    const res = await layer.search({ query: 'tokio tutorial', sources: ['bookmarks'], intent: 'none' })
    expect(res.providers.bookmarks).toMatchObject({ status: 'ok', results: 1, calls: 1 })
    expect(res.results.map((r) => [r.url, r.sources])).toEqual([['https://tokio.rs/tokio/tutorial', ['bookmarks']]])
    expect(layer.providers.find((d) => d.id === 'bookmarks')).toMatchObject({ routing: 'engine', priority: 100 })
  })
})
