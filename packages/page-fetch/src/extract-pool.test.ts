import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { type ExtractPool, createExtractPool, extractReadable } from './index.js'

const pools: ExtractPool[] = []
const pool = (options: Parameters<typeof createExtractPool>[0] = {}) => {
  const created = createExtractPool(options)
  pools.push(created)
  return created
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

const nested = (depth: number) =>
  `<html><body>${'<div>'.repeat(depth)}<p>Deep text.</p>${'</div>'.repeat(depth)}</body></html>`
const manyLinks = (n: number) =>
  `<html><body><article>${Array.from({ length: n }, (_, i) => `<a href="/p/${i}">link number ${i}</a> `).join('')}</article></body></html>`
const settled = (promise: Promise<unknown>) => {
  const state = { done: false }
  promise.then(
    () => (state.done = true),
    () => (state.done = true),
  )
  return state
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('createExtractPool', () => {
  it('gives the same page as extractReadable', async () => {
    const html =
      '<html><head><title>T</title></head><body><article><p>Some text <a href="/x">x</a></p></article></body></html>'
    const options = { url: 'https://pool.example/a' }
    expect(await pool().pageFromBody(html, 'text/html', options)).toEqual(extractReadable(html, options))
  })

  it('keeps the event loop free while a slow page is read, then degrades it at the time limit', async () => {
    // 1,200 levels with the depth limit lifted: ~10 s of Readability, far past the 1.5 s limit.
    const job = pool().pageFromBody(nested(1200), 'text/html', {
      url: 'https://deep.example/',
      limits: { maxDepth: 10_000, maxTotalDepth: Number.POSITIVE_INFINITY },
      timeoutMs: 1500,
    })
    const state = settled(job)
    await tick()
    await tick()
    expect(state.done).toBe(false) // timers ran on this thread while the worker was busy
    const page = await job
    expect(page.degraded).toBe('readable extraction did not finish within 1,500 ms')
    expect(page.text).toBe('Deep text.')
  })

  it('degrades a page that runs the worker out of heap instead of crashing the process', async () => {
    const p = pool({ maxHeapMb: 24, fallbackTimeoutMs: 120_000 })
    const page = await p.pageFromBody(manyLinks(100_000), 'text/html', {
      url: 'https://links.example/',
      limits: {
        maxElements: Number.POSITIVE_INFINITY,
        maxLinks: Number.POSITIVE_INFINITY,
        maxAttributes: Number.POSITIVE_INFINITY,
      },
      timeoutMs: 120_000,
    })
    // The plain-text read runs out of that heap too; the calling thread reads the start of the page.
    expect(page.degraded).toBe(
      'readable extraction ran out of memory (worker heap limit 24 MB); text from the first 131,072 of 4,077,825 characters only (reading it all as text ran out of memory (worker heap limit 24 MB))',
    )
    expect(page.links).toHaveLength(1000)
    // The worker was replaced: the pool still reads pages.
    expect((await p.pageFromBody('<p>after</p>', 'text/html', { url: 'https://x.example/' })).text).toBe('after')
    // A hang guard: three workers start and two run out of heap, 14-15 s on a loaded 2-core machine.
  }, 60_000)

  it('degrades a page under the depth, element and link bounds that would take Readability a minute', async () => {
    const chain = (i: number) => `${'<div>'.repeat(250)}<p>Paragraph ${i}.</p>${'</div>'.repeat(250)}`
    const html = `<html><body>${Array.from({ length: 150 }, (_, i) => chain(i)).join('')}</body></html>`
    // A deadline no run comes near: the outcome says whether the pre-scan stopped it, not how fast.
    const page = await pool().pageFromBody(html, 'text/html', { url: 'https://deep.example/', timeoutMs: 300_000 })
    expect(page.degraded).toMatch(/^page too complex for readable extraction: total nesting depth 4,819,203,/)
    expect(page.text.split('\n\n')).toHaveLength(150)
  })

  it('reads the plain-text fallback of a timed-out page in a worker, the whole body', async () => {
    const html = `<html><body>${nested(1200)}${'<p>More text.</p>'.repeat(20_000)}</body></html>`
    const page = await pool({ fallbackTimeoutMs: 300_000 }).pageFromBody(html, 'text/html', {
      url: 'https://deep.example/',
      limits: { maxDepth: 10_000, maxTotalDepth: Number.POSITIVE_INFINITY },
      timeoutMs: 200,
    })
    expect(page.degraded).toBe('readable extraction did not finish within 200 ms')
    expect(page.text.split('\n\n')).toHaveLength(20_001)
  })

  it('reads only the start of the body on the calling thread when the plain-text fallback times out too', async () => {
    const html = `<html><body>${nested(1200)}${'<p>More text.</p>'.repeat(20_000)}</body></html>`
    const page = await pool({ fallbackTimeoutMs: 1 }).pageFromBody(html, 'text/html', {
      url: 'https://deep.example/',
      limits: { maxDepth: 10_000, maxTotalDepth: Number.POSITIVE_INFINITY },
      timeoutMs: 200,
    })
    expect(page.degraded).toBe(
      `readable extraction did not finish within 200 ms; text from the first 131,072 of ${html.length.toLocaleString('en-US')} characters only (reading it all as text did not finish within 1 ms)`,
    )
    expect(page.text).toMatch(/^Deep text\.\n\nMore text\.\n\n/)
    expect(page.text.split('\n\n').length).toBeLessThan(20_001)
  })

  it("does not charge a worker's start-up to the page: a slow-starting worker still reads it readably", async () => {
    // A worker that takes 2 s to load its modules, as a cold one can on a loaded machine (a 10 s web_fetch deadline
    // once ran out before any page was read); the page itself needs milliseconds of its 1 s limit.
    const dir = mkdtempSync(join(tmpdir(), 'sl-slow-worker-'))
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }')
    const worker = pathToFileURL(join(dir, 'slow-start-worker.ts'))
    // A path, not a file: URL: the worker is bundled from its sources (_source-worker.ts), and esbuild reads paths.
    const real = fileURLToPath(new URL('./extract-worker.ts', import.meta.url))
    writeFileSync(worker, `await new Promise((r) => setTimeout(r, 2000))\nawait import(${JSON.stringify(real)})\n`)
    const p = pool({ workerUrl: new URL(worker.href.replace(/\.ts$/, '.js')) })
    const html =
      '<html><head><title>Slow start</title></head><body><article><h1>Heading</h1><p>Body text.</p></article></body></html>'
    const page = await p.pageFromBody(html, 'text/html', { url: 'https://slow.example/', timeoutMs: 1000 })
    expect(page.degraded).toBeUndefined()
    expect(page.title).toBe('Slow start')
  })

  it('starts its workers on warm(), before any page, and reads the next pages on them', async () => {
    // A worker that notes each start in a file, then is the real one.
    const dir = mkdtempSync(join(tmpdir(), 'sl-warm-worker-'))
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }')
    const starts = join(dir, 'starts.log')
    const worker = pathToFileURL(join(dir, 'counting-worker.ts'))
    // A path, not a file: URL: the worker is bundled from its sources (_source-worker.ts), and esbuild reads paths.
    const real = fileURLToPath(new URL('./extract-worker.ts', import.meta.url))
    writeFileSync(
      worker,
      `import { appendFileSync } from 'node:fs'\nappendFileSync(${JSON.stringify(starts)}, 'start\\n')\nawait import(${JSON.stringify(real)})\n`,
    )
    const p = pool({ size: 2, workerUrl: new URL(worker.href.replace(/\.ts$/, '.js')) })
    const started = () => (existsSync(starts) ? readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0)
    expect(started()).toBe(0)
    p.warm()
    p.warm()
    while (started() < 2) await tick()
    const pages = await Promise.all(
      ['One', 'Two', 'Three'].map((title) =>
        p.pageFromBody(`<html><head><title>${title}</title></head><body><p>Text.</p></body></html>`, 'text/html', {
          url: 'https://warm.example/',
        }),
      ),
    )
    expect(pages.map((page) => page.title)).toEqual(['One', 'Two', 'Three'])
    expect(started()).toBe(2)
  })

  it('rejects with a timeout FetchError when the caller aborts, and stops the worker', async () => {
    const controller = new AbortController()
    const job = pool().pageFromBody(nested(1200), 'text/html', {
      url: 'https://deep.example/',
      limits: { maxDepth: 10_000, maxTotalDepth: Number.POSITIVE_INFINITY },
      signal: controller.signal,
    })
    await tick()
    controller.abort()
    await expect(job).rejects.toMatchObject({ name: 'FetchError', kind: 'timeout', retryable: false })
  })

  it('rejects pending jobs on close and starts again when used after', async () => {
    const p = pool({ size: 1 })
    const outcomes = [nested(1200), nested(1200)].map((html) =>
      p
        .pageFromBody(html, 'text/html', {
          url: 'https://deep.example/',
          limits: { maxDepth: 10_000, maxTotalDepth: Number.POSITIVE_INFINITY },
        })
        .catch((error: unknown) => error),
    )
    await tick()
    await p.close()
    for (const outcome of await Promise.all(outcomes)) expect(outcome).toMatchObject({ kind: 'timeout' })
    expect((await p.pageFromBody('<p>again</p>', 'text/html', { url: 'https://x.example/' })).text).toBe('again')
  })
})
