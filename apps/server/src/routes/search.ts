import { createRoute, z } from '@hono/zod-openapi'
import type { ProviderName } from '@search-layer/core'
import type { SearchRequest, SearchResponse } from '@search-layer/engine'
import { evidenceToMarkdown } from '@search-layer/evidence'
import { synthesize, toJSON, toMarkdown, toText } from '@search-layer/synthesis'
import type { Context } from 'hono'
import {
  SearchFormatSchema,
  type SearchQuerySchema,
  SearchResponseSchema,
  searchBodySchemaFor,
  searchQuerySchemaFor,
} from '../schemas.js'
import { type AppEnv, callOf } from '../request-env.js'
import type { AppContext } from '../app-context.js'
import { type Security, commonErrors, createRouter, errors } from './responses.js'

/** The media type of `format=json`: synthesis' answer-first JSON, which is not the engine response. */
const SYNTHESIS_JSON = 'application/vnd.search-layer.synthesis+json'

const SynthesisJsonSchema = z
  .record(z.string(), z.unknown())
  .openapi('SynthesisJson', { description: 'answer, groups (label, summary, results), conflicts, omitted' })

// `application/json` is the engine response and nothing else; format=json is served under its own media type.
// openapi-typescript turns each media type into its own key of `content`, so a generated client reads
// `content['application/json'].results` without a cast; a union (or oneOf with a discriminator) under one media
// type would come out as `SearchResponse | {...}` and need narrowing by hand.
const searchOk = {
  description:
    "The engine response (application/json); with format=json|markdown|text synthesis' answer-first form (answer, topic groups, conflicts) under its own media type",
  content: {
    'application/json': { schema: SearchResponseSchema },
    [SYNTHESIS_JSON]: { schema: SynthesisJsonSchema },
    'text/markdown': { schema: z.string() },
    'text/plain': { schema: z.string() },
    // Served by routes/search-stream.ts when the request sends `Accept: text/event-stream`.
    'text/event-stream': {
      schema: z.string().openapi({ description: 'Events plan, progress, results (re-ranked), done or error' }),
    },
  },
}

/** `POST /v1/search` as OpenAPI describes and validates it: the engine's request, queries cut at the server's limit. */
const postSearchRoute = (security: Security, maxQueryChars: number) =>
  createRoute({
    method: 'post',
    path: '/v1/search',
    operationId: 'searchPost',
    summary: 'Search: classify, expand, fan out to the providers, merge and score.',
    security,
    request: {
      query: SearchFormatSchema,
      body: { required: true, content: { 'application/json': { schema: searchBodySchemaFor(maxQueryChars) } } },
    },
    responses: { 200: searchOk, ...errors('invalid_input', 'body_too_large', 'not_configured'), ...commonErrors() },
  })

/** `GET /v1/search`: the common subset of the request as query parameters. */
const getSearchRoute = (security: Security, maxQueryChars: number) =>
  createRoute({
    method: 'get',
    path: '/v1/search',
    operationId: 'searchGet',
    summary:
      'Search with query parameters (q, mode, intent, freshness, num, sources, cache, read, wait, patience, format, maxChars).',
    security,
    request: { query: searchQuerySchemaFor(maxQueryChars).extend(SearchFormatSchema.shape) },
    responses: { 200: searchOk, ...errors('invalid_input', 'not_configured'), ...commonErrors() },
  })

/** GET query parameters as a search request (the same names as the JSON body). */
export function searchRequestFromQuery(q: z.infer<typeof SearchQuerySchema>): SearchRequest {
  return {
    query: q.q,
    ...(q.mode && { mode: q.mode }),
    ...(q.intent && { intent: q.intent }),
    ...(q.freshness && { freshness: q.freshness }),
    ...(q.num !== undefined && { num: q.num }),
    ...(q.sources && { sources: q.sources.split(',').map((s) => s.trim()) as ProviderName[] }),
    ...(q.cache && { cache: q.cache === 'true' }),
    ...(q.read !== undefined && { read: q.read }),
    ...(q.wait !== undefined && { wait: q.wait }),
    ...(q.patience !== undefined && { patienceMs: q.patience }),
  }
}

/** The engine's response as is, or one of synthesis' forms of it. */
function respondSearch(c: Context<AppEnv>, response: SearchResponse, form: z.infer<typeof SearchFormatSchema>) {
  if (!form.format) return c.json(response, 200)
  const synthesis = synthesize(response, { ...(form.maxChars !== undefined && { maxChars: form.maxChars }) })
  if (form.format === 'json')
    return c.body(JSON.stringify(toJSON(synthesis)), 200, { 'content-type': `${SYNTHESIS_JSON}; charset=utf-8` })
  if (form.format === 'markdown')
    return c.body(`${toMarkdown(synthesis)}${evidenceMarkdown(response)}`, 200, {
      'content-type': 'text/markdown; charset=utf-8',
    })
  return c.text(toText(synthesis), 200)
}

/** The Evidence block (quoted passages, pages not read) of a search that read its top results. */
function evidenceMarkdown(response: SearchResponse): string {
  if (!response.reads) return ''
  const block = evidenceToMarkdown({ reads: response.reads, passages: response.passages ?? [] })
  return block ? `\n${block}` : ''
}

/** `POST` and `GET /v1/search` as JSON, markdown or text. */
export function searchRoutes({
  search,
  security,
  maxQueryChars,
}: {
  search: AppContext['search']
  security: Security
  maxQueryChars: number
}) {
  const router = createRouter()
  router.openapi(postSearchRoute(security, maxQueryChars), async (c) =>
    respondSearch(c, await search(c.req.valid('json'), callOf(c)), c.req.valid('query')),
  )
  router.openapi(getSearchRoute(security, maxQueryChars), async (c) => {
    const q = c.req.valid('query')
    return respondSearch(c, await search(searchRequestFromQuery(q), callOf(c)), q)
  })
  return router
}
