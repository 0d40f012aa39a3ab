// A client generated from the packed server's own OpenAPI document (openapi-typescript writes schema.d.ts, then
// openapi-fetch types every call from it): no casts, so `tsc --strict` proves the document types what a user reads.
import createClient from 'openapi-fetch'
import type { paths } from './schema.js'

const baseUrl = process.env.SERVER_URL
if (!baseUrl) throw new Error('SERVER_URL is not set')
// The search routes negotiate their body by Accept (JSON, synthesis JSON, markdown, text, event stream), as the
// document says; openapi-fetch's second type parameter picks the media type this client reads, JSON, as its
// README shows. Without it `data` is the union of all five, strings included.
const client = createClient<paths, 'application/json'>({ baseUrl })

const health = await client.GET('/healthz')
if (!health.data) throw new Error(`GET /healthz failed with ${health.response.status}`)

const posted = await client.POST('/v1/search', { body: { query: 'rust async runtime tokio', num: 3 } })
if (!posted.data) throw new Error(`POST /v1/search failed: ${JSON.stringify(posted.error)}`)
const postedUrls: string[] = posted.data.results.map((result) => result.url)

const got = await client.GET('/v1/search', { params: { query: { q: 'kubernetes operator pattern', num: 2 } } })
if (!got.data) throw new Error(`GET /v1/search failed: ${JSON.stringify(got.error)}`)
const gotTitles: string[] = got.data.results.map((result) => result.title)

// A refused request: the error body is typed too.
const refused = await client.POST('/v1/search', { body: { query: 'x'.repeat(501) } })
const refusal: { error: string; code: string } | undefined = refused.error

console.log(JSON.stringify({ postedUrls, gotTitles, refusedStatus: refused.response.status, refusal }))
