import { InputError, formatIssues, redactSecrets } from '@search-layer/core'
import { type SearchRequest, type SearchStreamEvent, streamSearch } from '@search-layer/engine'
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import { SearchQuerySchema } from '../schemas.js'
import type { AppEnv } from '../request-env.js'
import type { AppContext } from '../app-context.js'
import { describeError } from '../error-responses.js'
import { createRouter } from './responses.js'
import { searchRequestFromQuery } from './search.js'

const wantsEventStream = (c: Context<AppEnv>) => (c.req.header('accept') ?? '').includes('text/event-stream')

/** GET query parameters as a search request (the same names as the JSON route's GET form). */
function requestFromQuery(c: Context<AppEnv>): SearchRequest {
  const parsed = SearchQuerySchema.safeParse(c.req.query())
  if (!parsed.success) {
    const issues = formatIssues(parsed.error)
    throw new InputError(`Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues)
  }
  return searchRequestFromQuery(parsed.data)
}

async function requestFromBody(c: Context<AppEnv>): Promise<SearchRequest> {
  try {
    return (await c.req.json()) as SearchRequest
  } catch {
    throw new InputError('Invalid request: the body must be a JSON search request', [{ path: '', message: 'not JSON' }])
  }
}

/**
 * Serves `/v1/search` as server-sent events when the client sends `Accept: text/event-stream`: `plan`, `progress`,
 * `results` (re-ranked after each provider answer) and `done` (the response), or `error`. A request that fails
 * before the first event (bad input, nothing configured) gets the usual JSON error and status instead.
 * Mount it before the JSON routes; other requests pass through.
 */
export function searchStreamRoutes(context: AppContext) {
  const router = createRouter()
  router.on(['GET', 'POST'], '/v1/search', async (c, next) => {
    if (!wantsEventStream(c)) return next()
    const request = c.req.method === 'GET' ? requestFromQuery(c) : await requestFromBody(c)
    const signal = c.get('signal')
    const events = streamSearch(
      (r, options) =>
        context.search(r, {
          who: c.get('who'),
          signal,
          ...(options.onStream && { onStream: options.onStream }),
        }),
      request,
    )[Symbol.asyncIterator]()
    // Until the plan is made (or the answer is there), failures are the request's: the usual JSON error and status.
    const opening: SearchStreamEvent[] = []
    while (true) {
      const next = await events.next()
      if (next.done) break
      opening.push(next.value)
      if (next.value.type === 'plan' || next.value.type === 'done') break
    }
    // Proxies that buffer responses (nginx) would hold the events back until the end.
    c.header('X-Accel-Buffering', 'no')
    return streamSSE(c, async (sse) => {
      const send = (event: SearchStreamEvent) => sse.writeSSE({ event: event.type, data: JSON.stringify(event) })
      try {
        for (const event of opening) await send(event)
        while (true) {
          const next = await events.next()
          if (next.done) break
          await send(next.value)
        }
      } catch (error) {
        const { body } = describeError(error)
        await sse.writeSSE({
          event: 'error',
          data: JSON.stringify({ ...body, error: redactSecrets(String(body.error)), requestId: c.get('requestId') }),
        })
      }
    })
  })
  return router
}
