import type { Command } from '../command.js'

export const mcpCommand: Command = {
  name: 'mcp',
  summary:
    'Run as an MCP server on stdio (Claude Desktop/Code, Cursor…): web_search, web_fetch, fetch_thread, extract_refs.',
  usage: 'search-layer mcp [--max-chars N]',
  flags: {
    'max-chars': {
      type: 'string',
      valueHint: 'n',
      description: 'size budget of each tool result text (default 12000, well under common tool-result limits)',
    },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  sections: {
    'Claude Code / Cursor config': [
      '{"mcpServers": {"search-layer": {"command": "npx", "args": ["-y", "@search-layer/cli", "mcp"],',
      '  "env": {"<PROVIDER>_API_KEY": "…"}}}}',
      '(`search-layer providers` lists the variable of each provider; set any subset.)',
    ],
  },
  run: (args, io) => import('./mcp-run.js').then((m) => m.runMcp(args, io)),
}
