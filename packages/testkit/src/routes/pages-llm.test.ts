import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { postJson } from '../_test-helpers.js'
import { type Emulator, startEmulator } from '../index.js'

let emu: Emulator
beforeEach(async () => {
  emu ??= await startEmulator()
  emu.reset()
  emu.llm.respond(null)
})
afterAll(() => emu?.close())

// biome-ignore lint/suspicious/noExplicitAny: test-only access into JSON
type Json = Record<string, any>

describe('pages', () => {
  it('serves a realistic English article with boilerplate around the content', async () => {
    const res = await fetch(`${emu.urls.pages}/article`)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    for (const part of [
      '<nav',
      '<footer',
      '<title>Structured concurrency',
      'article:published_time',
      'class="byline"',
      'href="https://docs.rs/tokio',
    ])
      expect(html).toContain(part)
  })

  it('serves real GBK bytes declared by <meta charset="gbk">', async () => {
    const res = await fetch(`${emu.urls.pages}/zh-gbk`)
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.toString('latin1')).toContain('<meta charset="gbk">')
    expect(bytes.toString('utf8')).not.toContain('异步编程')
    expect(new TextDecoder('gbk').decode(bytes)).toContain('Rust 异步编程实战')
  })

  it('redirects with 302 to ?to=', async () => {
    const res = await fetch(`${emu.urls.pages}/redirect?to=${encodeURIComponent(`${emu.urls.pages}/article`)}`, {
      redirect: 'manual',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`${emu.urls.pages}/article`)
    expect((await fetch(`${emu.urls.pages}/redirect?to=${encodeURIComponent(`${emu.urls.pages}/article`)}`)).url).toBe(
      `${emu.urls.pages}/article`,
    )
  })

  it('serves binary as application/octet-stream', async () => {
    const res = await fetch(`${emu.urls.pages}/binary`)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect((await res.arrayBuffer()).byteLength).toBe(4096)
  })

  it('streams /endless until the client aborts', async () => {
    const controller = new AbortController()
    const res = await fetch(`${emu.urls.pages}/endless`, { signal: controller.signal })
    const reader = res.body!.getReader()
    let n = 0
    while (n < 256 * 1024) n += (await reader.read()).value!.length
    controller.abort()
    await expect.poll(() => emu.requests[0]?.endedAt).toBeDefined()
  })

  it('serves pages registered with pages.set, and nginx 404 otherwise', async () => {
    emu.pages.set('/custom', {
      body: '{"ok":true}',
      contentType: 'application/json',
      status: 201,
      headers: { 'x-extra': '1' },
    })
    const res = await fetch(`${emu.urls.pages}/custom`)
    expect(res.status).toBe(201)
    expect(res.headers.get('x-extra')).toBe('1')
    expect(await res.json()).toEqual({ ok: true })
    const missing = await fetch(`${emu.urls.pages}/missing`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('<center>nginx</center>')
  })
})

describe('llm', () => {
  const chat = (body: unknown, key = emu.keys.llm) =>
    postJson(`${emu.urls.llm}/chat/completions`, body, { authorization: `Bearer ${key}` })

  it('answers an OpenAI chat completion with a deterministic default reply', async () => {
    const req = { model: 'test-llm-mini', messages: [{ role: 'user', content: 'expand: rust async' }] }
    const a = (await (await chat(req)).json()) as Json
    expect(a).toMatchObject({
      object: 'chat.completion',
      model: 'test-llm-mini',
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
      usage: { total_tokens: expect.any(Number) },
    })
    expect(a.id).toMatch(/^chatcmpl-/)
    expect(a.choices[0].message.content).toContain('3 words')
    expect(await (await chat(req)).text()).toBe(JSON.stringify(a))
  })

  it('respond() scripts text or a raw status', async () => {
    emu.llm.respond(({ messages, model }) => `${model}:${messages.at(-1)!.content.toUpperCase()}`)
    const body = (await (
      await chat({
        model: 'm',
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'hi' },
        ],
      })
    ).json()) as Json
    expect(body.choices[0].message.content).toBe('m:HI')
    emu.llm.respond(() => ({ status: 503, body: { error: { message: 'overloaded' } } }))
    const res = await chat({ model: 'm', messages: [] })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: { message: 'overloaded' } })
  })

  it('streams SSE when stream:true', async () => {
    emu.llm.respond(() => 'streamed answer text that is long enough to be split')
    const text = await (await chat({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true })).text()
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
  })

  it.each([
    ['wrong key', { model: 'm', messages: [] }, 'sk-wrong', 401, 'invalid_api_key'],
    ['no model', { messages: [] }, undefined, 400, null],
    ['no messages', { model: 'm' }, undefined, 400, 'missing_required_parameter'],
  ])('%s → %i', async (_l, body, key, status, code) => {
    const res = await chat(body, key ?? emu.keys.llm)
    expect(res.status).toBe(status)
    expect(((await res.json()) as Json).error).toMatchObject({ code })
  })
})
