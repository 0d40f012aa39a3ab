import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from './errors.js'
import { chatCompletion, extractJsonObject, llmEndpointFromEnv } from './llm.js'

let server: Server
let base: string
let lastBody: { model: string; temperature?: number; max_tokens?: number; messages: unknown[] } | undefined
let lastAuth: string | undefined
let reply: (res: import('node:http').ServerResponse) => void

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      lastBody = JSON.parse(body)
      lastAuth = req.headers.authorization
      expect(req.url).toBe('/v1/chat/completions')
      reply(res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('chatCompletion', () => {
  it('posts the messages to /chat/completions with a bearer key and returns the first choice', async () => {
    reply = (res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { content: 'hello' } }] }))
    const text = await chatCompletion(
      { url: `${base}/`, apiKey: 'sk-test-llm-key-000001', model: 'm1' },
      { messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 5 },
    )
    expect(text).toBe('hello')
    expect(lastBody).toMatchObject({
      model: 'm1',
      temperature: 0,
      max_tokens: 5,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(lastAuth).toBe('Bearer sk-test-llm-key-000001')
  })

  it('maps failures to ProviderError without the key', async () => {
    reply = (res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key sk-test-llm-key-000001"}')
    const error = await chatCompletion(
      { url: base, apiKey: 'sk-test-llm-key-000001', model: 'm' },
      { messages: [], retries: 0 },
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'auth', provider: 'llm' })
    expect(String((error as Error).message)).not.toContain('sk-test-llm-key-000001')
    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": []}')
    await expect(chatCompletion({ url: base, model: 'm' }, { messages: [], retries: 0 })).rejects.toMatchObject({
      kind: 'bad_response',
    })
  })
})

describe('llmEndpointFromEnv and extractJsonObject', () => {
  it.each([
    [{}, undefined],
    [
      { SEARCH_LAYER_LLM_URL: 'http://x/v1', SEARCH_LAYER_LLM_MODEL: 'm' },
      { url: 'http://x/v1', model: 'm' },
    ],
    [
      { SEARCH_LAYER_LLM_URL: 'http://x/v1', SEARCH_LAYER_LLM_MODEL: 'm', SEARCH_LAYER_LLM_KEY: 'k' },
      { url: 'http://x/v1', model: 'm', apiKey: 'k' },
    ],
  ])('%j → %j', (env, expected) => expect(llmEndpointFromEnv(env)).toEqual(expected))

  it.each([
    [{ SEARCH_LAYER_LLM_URL: 'file:///x', SEARCH_LAYER_LLM_MODEL: 'm' }, 'SEARCH_LAYER_LLM_URL'],
    [{ SEARCH_LAYER_LLM_URL: 'http://x/v1' }, 'SEARCH_LAYER_LLM_MODEL'],
  ])('%j is a ConfigError naming %s', (env, field) => {
    expect(() => llmEndpointFromEnv(env)).toThrowError(ConfigError)
    expect(() => llmEndpointFromEnv(env)).toThrowError(field)
  })

  it.each([
    ['Sure! ```json\n{"intent": "news"}\n``` done', { intent: 'news' }],
    ['no json here', undefined],
    ['{broken', undefined],
    [null, undefined],
  ])('extractJsonObject(%j)', (text, expected) => expect(extractJsonObject(text)).toEqual(expected))
})
