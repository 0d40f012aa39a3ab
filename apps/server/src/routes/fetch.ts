import { createRoute, z } from '@hono/zod-openapi'
import type { Env } from '@search-layer/core'
import { fetchPage } from '@search-layer/page-fetch'
import {
  RefSchema,
  ThreadErrorSchema,
  ThreadSchema,
  ThreadTypeSchema,
  extractRefsFromUrls,
  fetchThread,
} from '@search-layer/thread-fetch'
import { FetchBodySchema, ReadablePageSchema, RefsBodySchema, ThreadBodySchema } from '../schemas.js'
import { type Security, commonErrors, createRouter, errors, json } from './responses.js'

/** Options of `fetchRoutes`. */
export interface FetchRoutesOptions {
  /** Where page-fetch and thread-fetch read keys, base URLs and `SEARCH_LAYER_ALLOW_PRIVATE_HOSTS`. */
  env: Env
  /** Deadline of one page fetch, download and reading together (`SEARCH_LAYER_FETCH_TIMEOUT_MS`). */
  fetchTimeoutMs: number
  security: Security
}

const RefsResultSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().optional(),
      type: ThreadTypeSchema.optional(),
      refs: z.array(RefSchema),
      error: ThreadErrorSchema.optional(),
    }),
  ),
})

/** Cuts a page's markdown and text at `maxChars`, saying whether anything was cut. */
function cutPage<P extends { markdown: string; text: string }>(page: P, maxChars: number | undefined) {
  const cut = (text: string) => (maxChars !== undefined && text.length > maxChars ? text.slice(0, maxChars) : text)
  const truncated = maxChars !== undefined && (page.markdown.length > maxChars || page.text.length > maxChars)
  return { ...page, markdown: cut(page.markdown), text: cut(page.text), truncated }
}

/** `POST /v1/fetch`, `/v1/thread` and `/v1/refs`: one page, one thread, or the references of several URLs. */
export function fetchRoutes({ env, fetchTimeoutMs, security }: FetchRoutesOptions) {
  const router = createRouter()
  router.openapi(
    createRoute({
      method: 'post',
      path: '/v1/fetch',
      operationId: 'fetchPage',
      summary: 'Fetches one URL (SSRF-guarded, size-capped) and returns its readable content.',
      security,
      request: { body: { required: true, content: { 'application/json': { schema: FetchBodySchema } } } },
      responses: {
        200: json(ReadablePageSchema, 'The readable page'),
        ...errors('invalid_input', 'blocked', 'upstream', 'body_too_large'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const { url, maxChars } = c.req.valid('json')
      const page = await fetchPage(url, { signal: c.get('signal'), env, timeoutMs: fetchTimeoutMs })
      return c.json(cutPage(page, maxChars), 200)
    },
  )

  router.openapi(
    createRoute({
      method: 'post',
      path: '/v1/thread',
      operationId: 'fetchThread',
      summary:
        'Reads a GitHub issue/PR, Hacker News, Reddit or V2EX thread (or any page) with comments and typed references.',
      security,
      request: { body: { required: true, content: { 'application/json': { schema: ThreadBodySchema } } } },
      responses: {
        200: json(ThreadSchema, 'The thread'),
        ...errors('invalid_input', 'blocked', 'upstream', 'body_too_large'),
        ...commonErrors(),
      },
    }),
    async (c) => {
      const { url, maxComments } = c.req.valid('json')
      return c.json(await fetchThread(url, { signal: c.get('signal'), env, maxComments }), 200)
    },
  )

  router.openapi(
    createRoute({
      method: 'post',
      path: '/v1/refs',
      operationId: 'extractRefs',
      summary: "Each URL's typed references (issues, PRs, commits, links); one URL's failure is reported in its entry.",
      security,
      request: { body: { required: true, content: { 'application/json': { schema: RefsBodySchema } } } },
      responses: {
        200: json(RefsResultSchema, 'References per URL, in request order'),
        ...errors('invalid_input', 'body_too_large'),
        ...commonErrors(),
      },
    }),
    async (c) =>
      c.json({ results: await extractRefsFromUrls(c.req.valid('json').urls, { signal: c.get('signal'), env }) }, 200),
  )
  return router
}
