import type { Command } from '../command.js'

export const serveCommand: Command = {
  name: 'serve',
  summary:
    'Run the HTTP API (search, fetch, thread, refs, agent tools, MCP at /mcp) for many agents; Redis shares state across instances.',
  usage:
    'search-layer serve [--port N] [--host H] [--allowed-hosts LIST] [--redis-url URL] [--data-dir DIR] [--rate-limit N] [--log-level L]',
  flags: {
    port: { type: 'string', valueHint: '0-65535', description: 'TCP port (default 8787; 0 picks a free one)' },
    host: { type: 'string', valueHint: 'address', description: 'interface to bind (default 127.0.0.1)' },
    'allowed-hosts': {
      type: 'string',
      valueHint: 'list',
      description:
        'host names to answer to besides localhost and 127.0.0.1: comma list, .example.com for subdomains too, "all" for no check (unsafe)',
    },
    'redis-url': {
      type: 'string',
      valueHint: 'redis://…',
      description: 'share cache, limits, budgets and history through Redis',
    },
    'data-dir': { type: 'string', valueHint: 'dir', description: 'where history is kept without Redis' },
    'rate-limit': { type: 'string', valueHint: 'n', description: 'requests per client per window (0 = off)' },
    'log-level': {
      type: 'string',
      choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      description: 'log level (JSON logs on stdout)',
    },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  // The settings table comes from the server package, loaded only for `serve --help`.
  sections: () =>
    import('@search-layer/server').then(({ SERVER_SETTINGS }) => ({
      'Settings (environment; flags win)': SERVER_SETTINGS.flatMap((s) => [
        `${s.env}${s.flag ? ` (${s.flag})` : ''} — default ${s.default}`,
        `    ${s.description}`,
      ]),
    })),
  examples: [
    'search-layer serve --port 8787',
    'search-layer serve --allowed-hosts search.lan,.corp.example',
    'SEARCH_LAYER_API_KEYS=@/etc/search-layer/keys REDIS_URL=redis://127.0.0.1:6379 search-layer serve --host 0.0.0.0',
  ],
  run: (args, io) => import('./serve-run.js').then((m) => m.runServe(args, io)),
}
