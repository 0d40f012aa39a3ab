import type { Readable, Writable } from 'node:stream'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { type McpServerOptions, createMcpServer } from './server.js'

/** Options of `runStdioServer`: the server options plus the streams (default `process.stdin`/`process.stdout`). */
export interface StdioServerOptions extends McpServerOptions {
  stdin?: Readable
  stdout?: Writable
}

/** A running stdio server. */
export interface RunningStdioServer {
  server: McpServer
  /** Disconnects and stops reading stdin. */
  close(): Promise<void>
}

/**
 * Serves MCP over stdio (`search-layer mcp`): JSON-RPC on stdout, nothing else is written there. Resolves once
 * connected; the server then runs until stdin ends or `close()` is called. Never throws for tool failures.
 */
export async function runStdioServer(options: StdioServerOptions = {}): Promise<RunningStdioServer> {
  const { stdin, stdout, ...serverOptions } = options
  const server = await createMcpServer(serverOptions)
  const transport = new StdioServerTransport(stdin, stdout)
  await server.connect(transport)
  return { server, close: () => server.close() }
}
