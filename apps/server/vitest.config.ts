import { fileURLToPath } from 'node:url'
import { mergeConfig } from 'vitest/config'
import shared from '../../vitest.shared'

// NOTE: the MCP SDK is a dependency of @search-layer/mcp, not of the server. test/mcp.e2e.test.ts drives /mcp with
// the SDK's own client, resolved through that package so the server carries no dependency only a test needs.
const sdk = fileURLToPath(new URL('../../packages/mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/', import.meta.url))

export default mergeConfig(shared, {
  resolve: { alias: [{ find: /^@modelcontextprotocol\/sdk\/(.*)$/, replacement: `${sdk}$1` }] },
})
