import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { braveAnswer, type Emulator, type LlmRequest, startEmulator } from '@search-layer/testkit'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { findWebDir } from '../src/routes/web.js'
import { launchChromium } from './_browser.js'
import { type Booted, boot } from './_helpers.js'

// The web app's Ask view in headless Chromium against a real server, the emulator's Brave (one invented page,
// written for these tests) and its scripted model.

let emu: Emulator
let browser: Browser
let server: Booted
let context: BrowserContext
let page: Page

const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
const PAGE = `<!DOCTYPE html><html><head><title>Zorblax 4.2 release notes</title></head><body><main><article><h1>Zorblax 4.2 release notes</h1><p>${FACT} It ships a new streaming parser.</p><p>Support for Node 16 was dropped in this release.</p></article></main></body></html>`

beforeAll(async () => {
  if (!findWebDir()) throw new Error('The web app is not built: run `npx -y pnpm@10 --filter @search-layer/web build`')
  ;[emu, browser] = await Promise.all([startEmulator(), launchChromium()])
  server = await boot(emu, {
    envOverride: {
      SEARCH_LAYER_HISTORY_DIR: mkdtempSync(join(tmpdir(), 'sl-web-ask-')),
      EXA_API_KEY: undefined,
      TAVILY_API_KEY: undefined,
      XAI_API_KEY: undefined,
    },
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await emu?.close()
})
beforeEach(async () => {
  emu.reset()
  emu.pages.set('/ask/zorblax', { body: PAGE })
  context = await browser.newContext({ viewport: { width: 1200, height: 900 } })
  page = await context.newPage()
})
afterEach(async () => {
  await context.close()
})

/** The id of the passage shown to the model whose text has `needle`. */
const passageWith = (request: LlmRequest, needle: string) => {
  const shown = request.messages.map((m) => m.content).join('\n')
  for (const block of shown.split(/\n(?=\[p\d+\] )/)) {
    const m = /^\[(p\d+)\] /.exec(block.trimStart())
    if (m && block.includes(needle)) return m[1] as string
  }
  return 'p404'
}

async function ask(question: string) {
  await page.getByRole('textbox', { name: /question/i }).fill(question)
  await page.keyboard.press('Enter')
}

describe('the Ask view', { timeout: 120_000 }, () => {
  it('draws the execution graph live, then the checked answer; a follow-up continues the conversation', async () => {
    const results = [
      { title: 'Zorblax 4.2 release notes', url: `${emu.urls.pages}/ask/zorblax`, description: 'Zorblax 4.2 is out.' },
    ]
    // A slow search: the graph must show it running before anything else comes back.
    emu.fault('brave', braveAnswer(results, { latencyMs: 2_500 }))
    const seen: LlmRequest[] = []
    emu.llm.script([
      (request) => {
        seen.push(request)
        return { toolCalls: [{ name: 'web_search', arguments: { query: 'Zorblax 4.2 release' } }] }
      },
      (request) => {
        seen.push(request)
        const id = passageWith(request, FACT)
        return {
          content: `Zorblax 4.2 came out on 3 March 2026. [${id}: "released on 3 March 2026"] It is written in Haskell. [${id}: "written entirely in Haskell"]`,
        }
      },
      (request) => {
        seen.push(request)
        return {
          content: `The Zorblax maintainers released it. [${passageWith(request, FACT)}: "by the Zorblax maintainers"]`,
        }
      },
    ])
    await page.goto(`${server.url}/#/ask`)
    await ask('When was Zorblax 4.2 released?')

    // Live: the search is drawn running while no answer is there yet (one check inside the page, so no race).
    const runningWithoutAnswer =
      "document.querySelector('[data-node=tool][data-tool=web_search][data-status=running]') !== null && " +
      "document.querySelector('.ask-answer') === null"
    await page.waitForFunction(runningWithoutAnswer, undefined, { timeout: 60_000 })
    await page.locator('.ask-answer').waitFor({ timeout: 60_000 })
    const graph = page.locator('.exchange').first().locator('.ask-graph')
    expect(
      await graph.locator('[data-node]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node'))),
    ).toEqual(['question', 'model', 'tool', 'model', 'answer'])
    expect(await graph.locator('[data-node=tool]').getAttribute('data-status')).toBe('ok')
    expect(await graph.locator('[data-node=tool]').textContent()).toMatch(/Zorblax 4\.2 release.*1 results/)
    expect(await graph.locator('[data-node=answer]').getAttribute('data-status')).toBe('ok')

    // The answer: the true quote verified and linked to its page, the invented one marked unverified.
    const sentences = page.locator('.exchange').first().locator('.sentence')
    expect(await sentences.evaluateAll((s) => s.map((x) => x.getAttribute('data-status')))).toEqual([
      'supported',
      'unverified',
    ])
    const verified = sentences.nth(0).locator('.cite[data-verified=true] a')
    expect(await verified.getAttribute('href')).toBe(`${emu.urls.pages}/ask/zorblax`)
    expect(await sentences.nth(0).textContent()).not.toContain('[p')
    expect(await sentences.nth(1).locator('.cite[data-verified=false]').count()).toBe(1)
    expect(await page.locator('.ask-sources a').first().getAttribute('rel')).toBe('noopener noreferrer')

    // A follow-up carries the conversation: the model sees the first question.
    await ask('Who released it?')
    await page.locator('.exchange').nth(1).locator('.ask-answer').waitFor({ timeout: 60_000 })
    expect(seen[2]?.messages.map((m) => m.content).join('\n')).toContain('When was Zorblax 4.2 released?')
    expect(await page.locator('.exchange').nth(1).locator('.sentence').getAttribute('data-status')).toBe('supported')
    expect(await page.getByRole('button', { name: 'Follow up' }).count()).toBe(1)

    // The address keeps the conversation: a reload shows both questions, their graphs from the recorded steps.
    expect(page.url()).toMatch(/#\/ask\?c=[a-z0-9-]+$/)
    await page.reload()
    await page.locator('.exchange').nth(1).locator('.ask-answer').waitFor({ timeout: 30_000 })
    const first = page.locator('.exchange').first().locator('.ask-graph [data-node]')
    expect(await first.evaluateAll((n) => n.map((x) => x.getAttribute('data-node')))).toEqual([
      'question',
      'model',
      'tool',
      'model',
      'answer',
    ])
    expect(await page.getByRole('button', { name: 'Follow up' }).count()).toBe(1)
  })

  it('shows a refused model key as a failed turn, then the extractive answer with the note', async () => {
    const results = [
      { title: 'Zorblax 4.2 release notes', url: `${emu.urls.pages}/ask/zorblax`, description: 'Zorblax 4.2 is out.' },
    ]
    emu.fault('brave', braveAnswer(results))
    emu.llm.script([
      { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } },
    ])
    await page.goto(`${server.url}/#/ask`)
    await ask('When was Zorblax 4.2 released?')
    await page.locator('.ask-answer').waitFor({ timeout: 60_000 })
    const graph = page.locator('.ask-graph')
    expect(await graph.locator('[data-node=model]').getAttribute('data-status')).toBe('failed')
    expect(await graph.locator('[data-turn="0"] [data-node=tool]').getAttribute('data-tool')).toBe('web_search')
    expect(await graph.locator('[data-node]').evaluateAll((n) => n.map((x) => x.getAttribute('data-node')))).toEqual([
      'question',
      'model',
      'extractive',
      'tool',
      'answer',
    ])
    expect(await page.locator('.ask-answer .notice').textContent()).toContain('SEARCH_LAYER_LLM_KEY')
    expect(await page.locator('.ask-answer .badge').first().textContent()).toBe('extractive answer')
  })
})
