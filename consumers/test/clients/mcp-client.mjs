// The MCP SDK's own client against the packed MCP server: `node mcp-client.mjs stdio|http calls|cancel`.
// `calls` lists the tools and calls each one: having listed them, the SDK client validates every result's
// structuredContent against the tool's outputSchema and throws when it does not match. `cancel` starts a web_search,
// waits for "cancel" on stdin (the test sends it once the emulator has seen the engine calls), aborts it and prints
// how the call ended. Prints JSON.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createInterface } from 'node:readline'

const [transportName, mode] = process.argv.slice(2)
const transport =
  transportName === 'stdio'
    ? new StdioClientTransport({
        command: process.execPath,
        args: ['mcp-stdio-server.mjs'],
        env: process.env,
        stderr: 'inherit',
      })
    : new StreamableHTTPClientTransport(new URL(process.env.MCP_URL))
const client = new Client({ name: 'consumer', version: '1.0.0' })
await client.connect(transport)
const { tools } = await client.listTools()
const capabilities = client.getServerCapabilities()

async function calls() {
  const pages = process.env.PAGES_URL
  const args = {
    web_search: { query: 'rust async runtime tokio', max_results: 3 },
    web_fetch: { url: `${pages}/article` },
    fetch_thread: { url: 'https://github.com/octo/demo/issues/1', max_comments: 5 },
    extract_refs: { urls: ['https://github.com/octo/demo/issues/1'] },
    answer: { question: 'Which async runtime should I use in Rust?' },
  }
  const results = {}
  for (const tool of tools) {
    const result = await client.callTool({ name: tool.name, arguments: args[tool.name] ?? {} })
    results[tool.name] = {
      isError: result.isError ?? false,
      text: result.content[0]?.text?.slice(0, 1000),
      structuredKeys: Object.keys(result.structuredContent ?? {}),
    }
  }
  return {
    tools: tools.map((t) => ({ name: t.name, outputSchema: t.outputSchema?.type })),
    toolsListChanged: capabilities?.tools?.listChanged ?? false,
    resourcesListChanged: capabilities?.resources?.listChanged ?? false,
    results,
  }
}

async function cancel() {
  const controller = new AbortController()
  const call = client.callTool({ name: 'web_search', arguments: { query: 'cancel me please' } }, undefined, {
    signal: controller.signal,
  })
  console.log('started')
  const lines = createInterface({ input: process.stdin })
  for await (const line of lines) if (line === 'cancel') break
  controller.abort()
  const outcome = await call.then(
    () => 'finished',
    (error) => `rejected: ${error.name}`,
  )
  return { outcome }
}

const report = mode === 'cancel' ? await cancel() : await calls()
console.log(JSON.stringify(report))
await client.close()
