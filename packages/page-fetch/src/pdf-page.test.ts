import { longestLoopDelay } from '@search-layer/testkit'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { deepNestingPdf, encryptedPdf, inflationBombPdf, manyPagesPdf, textPdf, writePdf } from '../test/pdf-build.js'
import { type ReadablePage, createExtractPool, isFetchError, pageFromPdf } from './index.js'

const url = 'https://docs.example/spec.pdf'

async function failure(read: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await read
  } catch (error) {
    if (isFetchError(error)) return { kind: error.kind, message: error.message }
    throw error
  }
  throw new Error('expected the read to fail')
}

describe('pageFromPdf', () => {
  it('writes each page after a page marker, with the title, author and date of the document info', async () => {
    const pdf = textPdf(['Fetch in Node\nA history of the API.\n\nIt shipped in 18.', 'Second page text.'], {
      Title: 'The fetch API in Node',
      Author: 'Jane Doe',
      CreationDate: "D:20220419093000+02'00'",
    })
    const page = await pageFromPdf(pdf, { url })
    expect(page.markdown).toBe(
      '<!-- page 1 -->\n\nFetch in Node\nA history of the API.\n\nIt shipped in 18.\n\n<!-- page 2 -->\n\nSecond page text.',
    )
    expect(page).toMatchObject({
      url,
      finalUrl: url,
      title: 'The fetch API in Node',
      byline: 'Jane Doe',
      publishedAt: '2022-04-19T07:30:00.000Z',
      excerpt: 'Fetch in Node A history of the API.',
      text: 'Fetch in Node\nA history of the API.\n\nIt shipped in 18.\n\nSecond page text.',
      readerable: false,
    })
  })

  it('takes the title from the first line when the info has none, and finds the URLs in the text', async () => {
    const page = await pageFromPdf(textPdf(['Release notes 4.2\nSee https://example.com/changes. Thanks.']), { url })
    expect(page.title).toBe('Release notes 4.2')
    expect(page.links.map((link) => link.url)).toEqual(['https://example.com/changes'])
  })

  it('reads the first maxPages pages and says which were left', async () => {
    const page = await pageFromPdf(manyPagesPdf(12), { url, maxPages: 3 })
    expect(page.markdown.match(/<!-- page \d+ -->/g)).toEqual(['<!-- page 1 -->', '<!-- page 2 -->', '<!-- page 3 -->'])
    expect(page.markdown.endsWith('<!-- pages 4-12 not read: the limit is 3 pages -->')).toBe(true)
  })

  it('escapes text that would read as markup, so a page cannot forge a page marker', async () => {
    const page = await pageFromPdf(textPdf(['<!-- page 9 --> and *stars*']), { url })
    expect(page.markdown).toBe('<!-- page 1 -->\n\n\\<!-- page 9 --\\> and \\*stars\\*')
  })

  it('fails as empty, not as an empty success, when no page has text (a scan)', async () => {
    expect(await failure(pageFromPdf(textPdf(['', '']), { url }))).toEqual({
      kind: 'empty',
      message: `${url} has no text layer in its first 2 page(s) (scanned images?)`,
    })
  })

  it('fails as unreadable for an encrypted document and for a broken one', async () => {
    expect(await failure(pageFromPdf(encryptedPdf(), { url }))).toEqual({
      kind: 'unreadable',
      message: `${url} is encrypted and needs a password`,
    })
    const broken = await failure(pageFromPdf(textPdf(['cut short']).subarray(0, 200), { url }))
    expect(broken.kind).toBe('unreadable')
    expect(broken.message).toMatch(/is not a valid PDF/)
    const noPages = await failure(pageFromPdf(writePdf(['<< /Type /Catalog >>'], '/Root 1 0 R'), { url }))
    expect(noPages.kind).toBe('unreadable')
  })
})

// Hostile documents, read the way fetchPage reads them: in the pool's worker, under a deadline. Each test first
// reads a small PDF so the worker (and pdf.js in it) is started: the deadline then measures the document alone.
describe('ExtractPool.pageFromPdf with hostile documents', () => {
  const pool = createExtractPool({ size: 1 })
  const measured: string[] = []
  afterAll(async () => {
    if (process.env.PAGE_FETCH_MEASURE) console.info(measured.join('\n'))
    await pool.close()
  })
  beforeEach(async () => {
    await pool.pageFromPdf(textPdf(['warm']), { url: 'https://docs.example/warm.pdf', timeoutMs: 60_000 })
  }, 90_000)

  async function readTimed(name: string, pdf: Buffer, timeoutMs: number, maxPages?: number) {
    const startedAt = performance.now()
    let outcome: ReadablePage | { kind: string; message: string } | undefined
    const loopDelayMs = await longestLoopDelay(async () => {
      try {
        outcome = await pool.pageFromPdf(pdf, { url, timeoutMs, ...(maxPages !== undefined && { maxPages }) })
      } catch (error) {
        if (!isFetchError(error)) throw error
        outcome = { kind: error.kind, message: error.message }
      }
    })
    const ms = performance.now() - startedAt
    const kind = outcome && 'kind' in outcome ? outcome.kind : 'ok'
    measured.push(`${name}: ${pdf.length} bytes, ${kind} in ${Math.round(ms)} ms, loop delay ${loopDelayMs} ms`)
    return { outcome, ms, loopDelayMs, kind }
  }

  // With the read in a worker the event loop only waits on timers, messages and the test's own garbage collection;
  // on a 2-core machine shared with other work those reached ~500 ms. pdf.js on this thread yields between pages
  // but not while it inflates a stream or parses an object: a bomb would hold the loop for the whole read.
  const LOOP_DELAY_MS = 1000
  const LATE_MS = 1500

  it('reads 5,000 pages as the first 50, in time', async () => {
    const { outcome, loopDelayMs } = await readTimed('5,000 pages', manyPagesPdf(5000), 40_000)
    expect(outcome).toMatchObject({ title: 'The same page, again.' })
    const markdown = (outcome as ReadablePage).markdown
    expect(markdown.match(/<!-- page \d+ -->/g)).toHaveLength(50)
    expect(markdown.endsWith('<!-- pages 51-5000 not read: the limit is 50 pages -->')).toBe(true)
    expect(loopDelayMs).toBeLessThan(LOOP_DELAY_MS)
  }, 90_000)

  // Every page asked for: no machine reads 20,000 pages in a second, so the deadline is what ends the read.
  it('stops 20,000 pages at the deadline', async () => {
    const { kind, ms, loopDelayMs } = await readTimed('20,000 pages', manyPagesPdf(20_000), 1000, 20_000)
    expect(kind).toBe('timeout')
    expect(ms).toBeLessThan(1000 + LATE_MS)
    expect(loopDelayMs).toBeLessThan(LOOP_DELAY_MS)
  }, 90_000)

  it('fails an array nested 100,000 deep as unreadable, within the deadline', async () => {
    const { kind, ms, loopDelayMs } = await readTimed('nested 100,000 deep', deepNestingPdf(100_000, 1), 5000)
    expect(['unreadable', 'timeout']).toContain(kind)
    expect(ms).toBeLessThan(5000 + LATE_MS)
    expect(loopDelayMs).toBeLessThan(LOOP_DELAY_MS)
  }, 90_000)

  it('reads the page under a page tree 3,000 levels deep, or stops at the deadline', async () => {
    const { outcome, kind, ms, loopDelayMs } = await readTimed('page tree 3,000 deep', deepNestingPdf(0, 3000), 5000)
    if (kind === 'ok') expect((outcome as ReadablePage).markdown).toBe('<!-- page 1 -->\n\nUnder a deep tree.')
    else expect(['unreadable', 'timeout']).toContain(kind)
    expect(ms).toBeLessThan(5000 + LATE_MS)
    expect(loopDelayMs).toBeLessThan(LOOP_DELAY_MS)
  }, 90_000)

  it('stops a content stream that inflates to 128 MB of text operators at the deadline or the memory limit', async () => {
    const pdf = inflationBombPdf(128 * 1024 * 1024, '(x) Tj\n')
    expect(pdf.length).toBeLessThan(1024 * 1024)
    const { kind, ms, loopDelayMs } = await readTimed('128 MB of text operators', pdf, 3000)
    expect(['timeout', 'too_large']).toContain(kind)
    expect(ms).toBeLessThan(3000 + LATE_MS)
    expect(loopDelayMs).toBeLessThan(LOOP_DELAY_MS)
  }, 90_000)

  it('stops a content stream that inflates to 128 MB of spaces within the deadline', async () => {
    const { kind, ms, loopDelayMs } = await readTimed(
      '128 MB of spaces',
      inflationBombPdf(128 * 1024 * 1024, ' '),
      3000,
    )
    expect(['timeout', 'empty', 'too_large']).toContain(kind)
    expect(ms).toBeLessThan(3000 + LATE_MS)
    expect(loopDelayMs).toBeLessThan(LOOP_DELAY_MS)
  }, 90_000)
})
