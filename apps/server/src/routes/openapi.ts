import type { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from '../request-env.js'
import { createRouter } from './responses.js'

/** The limits of the running server the document states beyond the routes' schemas (`ServerOptions`). */
export interface DocumentedLimits {
  bodyLimitBytes: number
}

/** The document's header; the paths come from the routes' own zod schemas. */
const infoFor = ({ bodyLimitBytes }: DocumentedLimits) => ({
  title: 'search-layer',
  version: '0.1.0',
  license: { name: 'MIT', identifier: 'MIT' },
  description: `One search API over Brave, Exa, Tavily and Grok. The same agent tools (web_search, web_fetch, fetch_thread, extract_refs) are served over MCP (Streamable HTTP, stateless, POST) at /mcp, behind the same bearer auth and rate limit. Request bodies over ${bodyLimitBytes} bytes are refused with 413.`,
})

// The server cannot know the address clients reach it by (proxies, port mapping): a relative URL resolves against
// wherever the document was fetched from, which is where the API is.
const SERVERS = [{ url: '/', description: 'The server this document was fetched from' }]

/** The OpenAPI 3.1 document of every route `app` declares with `createRoute`, generated when asked. */
function openApiDocument(app: OpenAPIHono<AppEnv>, limits: DocumentedLimits) {
  return app.getOpenAPI31Document({ openapi: '3.1.0', info: infoFor(limits), servers: SERVERS })
}

/** `GET /openapi.json`: the document of `app`, whose routes must be mounted before it is served. */
export function openApiRoutes(app: OpenAPIHono<AppEnv>, limits: DocumentedLimits) {
  const router = createRouter()
  router.get('/openapi.json', (c) => c.json(openApiDocument(app, limits)))
  return router
}
