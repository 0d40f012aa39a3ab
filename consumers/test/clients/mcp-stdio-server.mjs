// The packed MCP server over stdio, started the way an MCP client's config starts it; env from the client.
import { runStdioServer } from '@search-layer/mcp'

await runStdioServer({ env: process.env })
