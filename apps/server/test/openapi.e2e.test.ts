import { createConfig, lintFromString } from '@redocly/openapi-core'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { type Booted, type Json, boot } from './_helpers.js'

const emu = useEmulator()
const servers: Booted[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
const start = async (options: Parameters<typeof boot>[1] = {}) => {
  const server = await boot(emu, options)
  servers.push(server)
  return server
}
const KEY = 'openapi-key-0123456789'
const documentOf = async (srv: Booted) => (await srv.call('/openapi.json', { key: KEY })).json()

/** Every operation of the document as [method path, operation]. */
const operations = (doc: Json): [string, Json][] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]): [string, Json] => [`${method.toUpperCase()} ${path}`, op]),
  )

/** The problems Redocly's `recommended` ruleset finds in `doc`, warnings printed for the reader. */
async function lint(doc: Json) {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config })
  for (const p of problems.filter((p) => p.severity !== 'error'))
    console.log(`redocly ${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`)
  return problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)
}

describe('/openapi.json is the running server', () => {
  it('documents the query limit the server enforces, and refuses one character more with 400', async () => {
    const srv = await start({ maxQueryChars: 40 })
    const doc = await documentOf(srv)
    const body = doc.paths['/v1/search'].post.requestBody.content['application/json'].schema
    expect(body.properties.query).toMatchObject({ type: 'string', maxLength: 40 })
    expect(body.properties.queries.items).toMatchObject({ type: 'string', maxLength: 40 })
    const q = (doc.paths['/v1/search'].get.parameters as Json[]).find((p) => p.name === 'q')
    expect(q?.schema).toMatchObject({ type: 'string', maxLength: 40 })

    const ok = 'a'.repeat(40)
    const over = 'a'.repeat(41)
    expect((await srv.call('/v1/search', { json: { query: ok, sources: ['brave'] } })).status).toBe(200)
    const refused = await srv.call('/v1/search', { json: { query: over, sources: ['brave'] } })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toMatch(/at most 40 characters/)
    expect((await srv.call('/v1/search', { json: { queries: [ok, over], sources: ['brave'] } })).status).toBe(400)
    expect((await srv.call(`/v1/search?q=${over}&sources=brave`)).status).toBe(400)
    expect((await srv.call(`/v1/search?q=${ok}&sources=brave`)).status).toBe(200)
  })

  it('states the body limit the server enforces', async () => {
    const srv = await start({ bodyLimitBytes: 1024 })
    expect((await documentOf(srv)).info.description).toMatch(/Request bodies over 1024 bytes are refused with 413/)
    const big = { query: 'size', domainBoost: Array.from({ length: 40 }, (_, i) => `site-${i}-abcdefghijkl.example`) }
    expect((await srv.call('/v1/search', { json: big })).status).toBe(413)
  })

  it('gives every operation a unique camelCase operationId, and a relative server', async () => {
    const doc = await documentOf(await start())
    const ids = operations(doc).map(([, op]) => op.operationId as string)
    expect(ids.every((id) => /^[a-z][a-zA-Z]*$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(operations(doc).length)
    expect(doc.paths['/v1/search'].post.operationId).toBe('searchPost')
    expect(doc.paths['/v1/search'].get.operationId).toBe('searchGet')
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })])
  })

  it('types the JSON 200 of a search as the engine response, format=json under its own media type', async () => {
    const srv = await start()
    const doc = await documentOf(srv)
    for (const method of ['post', 'get']) {
      const content = doc.paths['/v1/search'][method].responses['200'].content
      expect(content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchResponse' })
      expect(content['application/vnd.search-layer.synthesis+json'].schema).toEqual({
        $ref: '#/components/schemas/SynthesisJson',
      })
      expect(content['text/markdown'].schema).toEqual({ type: 'string' })
      expect(content['text/plain'].schema).toEqual({ type: 'string' })
    }
    const plain = await srv.call('/v1/search?q=bun%20vs%20deno&sources=brave')
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/)
    expect(Array.isArray((await plain.json()).results)).toBe(true)
    const synthesis = await srv.call('/v1/search?q=bun%20vs%20deno&sources=brave&format=json')
    expect(synthesis.headers.get('content-type')).toMatch(/^application\/vnd\.search-layer\.synthesis\+json/)
    expect(await synthesis.json()).toHaveProperty('groups')
  })

  it('with auth off declares no bearer scheme and no security requirement; 0 Redocly errors', async () => {
    const doc = await documentOf(await start())
    expect(doc.components.securitySchemes?.bearer).toBeUndefined()
    for (const [name, op] of operations(doc)) expect([name, op.security]).toEqual([name, []])
    expect(await lint(doc)).toEqual([])
  })

  it('with auth on requires bearer except on the public probes; 0 Redocly errors', async () => {
    const srv = await start({ apiKeys: [{ name: 'ci', key: KEY }] })
    const doc = await documentOf(srv)
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' })
    const PUBLIC = ['GET /healthz', 'GET /readyz']
    for (const [name, op] of operations(doc))
      expect([name, op.security]).toEqual([name, PUBLIC.includes(name) ? [] : [{ bearer: [] }]])
    // What the document calls public is: the probes answer without a key, the rest refuse.
    expect((await srv.call('/healthz')).status).toBe(200)
    expect((await srv.call('/metrics')).status).toBe(401)
    expect(await lint(doc)).toEqual([])
  })
})
