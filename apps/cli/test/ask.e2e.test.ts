import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { braveAnswer } from '@search-layer/testkit'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeEach, describe, expect, it } from 'vitest'
import { run, runBin } from './_run.js'

// `search-layer ask` in-process against the emulator: Brave (the only engine) finds one invented page served by the
// emulator, so an answer can come from nowhere else. Written for these tests.
const emu = useEmulator()
const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
let home: string

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sl-cli-ask-'))
  emu.pages.set('/ask/zorblax', {
    body: `<!DOCTYPE html><html><head><title>Zorblax 4.2 release notes</title></head><body><main><article><h1>Zorblax 4.2 release notes</h1><p>${FACT} It ships a new streaming parser.</p><p>Support for Node 16 was dropped in this release, and the minimum is now Node 20.</p></article></main></body></html>`,
  })
  const results = [
    { title: 'Zorblax 4.2 release notes', url: `${emu.urls.pages}/ask/zorblax`, description: 'Zorblax 4.2 is out.' },
  ]
  emu.fault('brave', braveAnswer(results))
})

const env = (extra: Record<string, string | undefined> = {}) => ({
  BRAVE_API_KEY: emu.env.BRAVE_API_KEY,
  BRAVE_API_URL: emu.env.BRAVE_API_URL,
  SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
  SEARCH_LAYER_KEYLESS: 'off',
  SEARCH_LAYER_RATE_LIMITS: 'off',
  SEARCH_LAYER_CACHE_DIR: join(home, 'cache'),
  SEARCH_LAYER_HISTORY_DIR: join(home, 'conversations'),
  HOME: home,
  ...extra,
})
const QUESTION = 'When was Zorblax 4.2 released?'

/** The scripted model: one web_search, then an answer quoting the passage it was shown. */
function scriptModel() {
  let calls = 0
  emu.llm.respond(({ model, messages }) => {
    calls++
    const toolSeen = messages.some((m) => m.role === 'tool')
    const id = /\[(p\d+)\] Zorblax/.exec(messages.map((m) => m.content).join('\n'))?.[1]
    const message = toolSeen
      ? { role: 'assistant', content: `It came out on 3 March 2026. [${id}: "released on 3 March 2026"]` }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `c${calls}`,
              type: 'function',
              function: { name: 'web_search', arguments: '{"query":"Zorblax 4.2"}' },
            },
          ],
        }
    return {
      status: 200,
      body: {
        id: `x${calls}`,
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message, finish_reason: toolSeen ? 'stop' : 'tool_calls' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
    }
  })
}

// The first ask loads the tokenizer and the page reader's worker: a slow start on a busy machine, not a hang.
describe('search-layer ask (in-process, emulator)', { timeout: 60_000 }, () => {
  it('answers extractively without a model and prints JSON when piped', async () => {
    const r = await run(['ask', QUESTION], env())
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const result = JSON.parse(r.stdout)
    expect(result).toMatchObject({ mode: 'extractive', abstained: false, question: QUESTION })
    expect(result.sentences[0].status).toBe('supported')
    expect(readFileSync(result.transcript, 'utf8')).toContain(`## Turn 1: ${QUESTION}`)
  })

  it('runs the model loop with the LLM variables, and follows up with --continue', async () => {
    scriptModel()
    const llm = {
      SEARCH_LAYER_LLM_URL: emu.env.SEARCH_LAYER_LLM_URL,
      SEARCH_LAYER_LLM_KEY: emu.env.SEARCH_LAYER_LLM_KEY,
      SEARCH_LAYER_LLM_MODEL: emu.env.SEARCH_LAYER_LLM_MODEL,
    }
    const first = JSON.parse((await run(['ask', QUESTION, '--json', '--rounds', '2'], env(llm))).stdout)
    expect(first).toMatchObject({ mode: 'model', counts: { supported: 1 }, usage: { rounds: { limit: 2 } } })
    const r = await run(['ask', '--continue', first.id, 'Who released it?', '--format', 'markdown'], env(llm))
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^## Turn 2: Who released it\?/)
    expect(r.stdout).toContain(`search-layer ask --continue ${first.id}`)
  })

  it('the built bin runs the model loop (the AI SDK bundled in its ask chunk)', async () => {
    scriptModel()
    const llm = {
      SEARCH_LAYER_LLM_URL: emu.env.SEARCH_LAYER_LLM_URL,
      SEARCH_LAYER_LLM_KEY: emu.env.SEARCH_LAYER_LLM_KEY,
      SEARCH_LAYER_LLM_MODEL: emu.env.SEARCH_LAYER_LLM_MODEL,
    }
    const r = await runBin(['ask', QUESTION, '--json'], env(llm))
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'model', counts: { supported: 1 } })
  })

  it('--no-model answers extractively even with a model configured', async () => {
    const r = await run(['ask', QUESTION, '--no-model'], env({ SEARCH_LAYER_LLM_URL: emu.env.SEARCH_LAYER_LLM_URL }))
    expect(JSON.parse(r.stdout).mode).toBe('extractive')
    expect(emu.count('llm')).toBe(0)
  })

  it.each([
    [['ask'], /give a question/],
    [['ask', 'x'.repeat(2_001)], /question.*2000 characters/],
    [['ask', '--continue', 'nope-not-there', QUESTION], /conversationId/],
    [['ask', QUESTION, '--rounds', '0'], /--rounds must be a whole number from 1 to 12/],
    [['ask', QUESTION, '--tool-calls', 'many'], /--tool-calls/],
  ])('exits 2 on %j', async (argv, message) => {
    const r = await run(argv, env())
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
  })
})
