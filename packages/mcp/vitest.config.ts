import { mergeConfig } from 'vitest/config'
import shared from '../../vitest.shared'

// NOTE(eventsource-parser): the MCP SDK client (and `ai`) depend on it, and its package exports a "source" condition pointing at .ts
// files; the shared "source" condition selects those, so vite must transform it instead of Node loading it.
export default mergeConfig(shared, { test: { server: { deps: { inline: ['eventsource-parser', /@modelcontextprotocol\/sdk\/dist\/esm\/client\/(sse|streamableHttp)\.js/] } } } })
