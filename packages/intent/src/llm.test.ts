import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { classifyIntent, classifyIntentWithLlm } from './index.js'

type Handler = (body: { model: string; messages: { role: string; content: string }[] }, res: ServerResponse) => void

const API_KEY = 'sk-test-loopback-0123456789'
let server: Server
let baseUrl: string
let handler: Handler
const seen: { path: string; authorization?: string; body: unknown }[] = []

function completion(content: string | null) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: 'intent-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 90, completion_tokens: 12, total_tokens: 102 },
  }
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const body = JSON.parse(raw)
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body })
    handler(body, res)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})

afterAll(async () => {
  server.closeAllConnections()
  server.close()
})

beforeEach(() => {
  seen.length = 0
  handler = (_body, res) => reply(res, 200, completion('{"intent": "status", "confidence": 0.82}'))
})

const llm = () => ({ url: baseUrl, apiKey: API_KEY, model: 'intent-mini' })

describe('classifyIntentWithLlm', () => {
  it('keeps the rules when they are confident and never calls the model', async () => {
    const result = await classifyIntentWithLlm('Bun vs Deno', { llm: llm() })
    expect(result).toMatchObject({ intent: 'comparison', source: 'rules' })
    expect(seen).toHaveLength(0)
  })

  it('is asked only when the rules and the learned model together are unsure', async () => {
    expect(classifyIntent('RISC-V', { model: false }).uncertain).toBe(true)
    const sure = classifyIntent('RISC-V')
    expect(sure.uncertain).toBe(false)
    expect(await classifyIntentWithLlm('RISC-V', { llm: llm() })).toMatchObject({ source: 'rules', model: sure.model })
    expect(seen).toHaveLength(0)
    expect(classifyIntent('zzqx vvbn').uncertain).toBe(true)
    expect(await classifyIntentWithLlm('zzqx vvbn', { llm: llm() })).toMatchObject({ intent: 'status', source: 'llm' })
    expect(seen).toHaveLength(1)
  })

  it('stays off without an endpoint', async () => {
    expect(await classifyIntentWithLlm('RISC-V')).toMatchObject({ intent: 'exploratory', source: 'rules' })
  })

  it('asks the model when the rules are unsure and uses its verdict with the table strategy', async () => {
    const result = await classifyIntentWithLlm('RISC-V recently', { llm: llm(), model: false })
    expect(result).toMatchObject({ intent: 'status', mode: 'deep', freshness: 'pw', confidence: 0.82, source: 'llm' })
    expect(result.weights).toEqual({ keyword: 0.3, freshness: 0.5, authority: 0.2 })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ path: '/v1/chat/completions', authorization: `Bearer ${API_KEY}` })
    expect(seen[0]?.body).toMatchObject({
      model: 'intent-mini',
      messages: [{ role: 'system' }, { role: 'user', content: 'RISC-V recently' }],
    })
  })

  it('accepts a verdict wrapped in a code fence, without confidence', async () => {
    handler = (_b, res) => reply(res, 200, completion('```json\n{"intent":"resource"}\n```'))
    expect(await classifyIntentWithLlm('RISC-V', { llm: llm(), model: false })).toMatchObject({
      intent: 'resource',
      mode: 'fast',
      confidence: 0.7,
      source: 'llm',
    })
  })

  it('respects minConfidence', async () => {
    await classifyIntentWithLlm('React docs', { llm: llm(), minConfidence: 0.5, model: false })
    expect(seen).toHaveLength(0)
    await classifyIntentWithLlm('React docs', { llm: llm(), minConfidence: 0.9, model: false })
    expect(seen).toHaveLength(1)
  })

  it.each([
    [
      'an unknown intent',
      (res: ServerResponse) => reply(res, 200, completion('{"intent":"shopping"}')),
      'bad_response',
    ],
    [
      'prose instead of JSON',
      (res: ServerResponse) => reply(res, 200, completion('I think it is exploratory.')),
      'bad_response',
    ],
    ['a null message', (res: ServerResponse) => reply(res, 200, completion(null)), 'bad_response'],
    ['a malformed envelope', (res: ServerResponse) => reply(res, 200, { choices: [] }), 'bad_response'],
    ['a 401', (res: ServerResponse) => reply(res, 401, { error: { message: 'invalid key' } }), 'auth'],
    ['a 500', (res: ServerResponse) => reply(res, 500, { error: { message: 'boom' } }), 'upstream'],
  ] as const)('falls back to the rules on %s', async (_name, respond, kind) => {
    handler = (_b, res) => respond(res)
    const result = await classifyIntentWithLlm('RISC-V', { llm: llm(), model: false })
    expect(result).toMatchObject({ intent: 'exploratory', source: 'rules', llmError: kind })
    expect(JSON.stringify(result)).not.toContain(API_KEY)
  })

  it('falls back on timeout', async () => {
    handler = () => {} // never answers
    const result = await classifyIntentWithLlm('RISC-V', { llm: llm(), model: false, timeoutMs: 150 })
    expect(result).toMatchObject({ intent: 'exploratory', source: 'rules', llmError: 'timeout' })
  })

  it('falls back when the caller aborts', async () => {
    handler = () => {}
    const controller = new AbortController()
    const pending = classifyIntentWithLlm('RISC-V', { llm: llm(), model: false, signal: controller.signal })
    controller.abort()
    expect(await pending).toMatchObject({ intent: 'exploratory', source: 'rules', llmError: 'timeout' })
  })

  it('falls back when nothing listens', async () => {
    const result = await classifyIntentWithLlm('RISC-V', {
      llm: { url: 'http://127.0.0.1:9/v1', model: 'm' },
      model: false,
      timeoutMs: 2000,
    })
    expect(result).toMatchObject({ source: 'rules', llmError: 'network' })
  })
})
