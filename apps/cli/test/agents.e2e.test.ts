import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { useEmulator } from '@search-layer/testkit/vitest'
import { describe, expect, it } from 'vitest'
import { BIN, run, runBin } from './_run.js'

const emu = useEmulator({ resetEachTest: false })
const env = (): Record<string, string> => ({
  ...emu.env,
  PATH: process.env.PATH ?? '',
  HOME: mkdtempSync(join(tmpdir(), 'sl-cli-home-')),
  SEARCH_LAYER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sl-cli-cache-')),
  SEARCH_LAYER_RATE_LIMITS: 'off',
})

describe('search-layer serve', () => {
  it('--help documents every setting', async () => {
    const r = await run(['serve', '--help'])
    expect(r.code).toBe(0)
    for (const name of ['SEARCH_LAYER_API_KEYS', 'REDIS_URL', 'SEARCH_LAYER_PORT', '--redis-url'])
      expect(r.stdout).toContain(name)
  })

  it('a bad flag value is a usage error', async () => {
    const r = await run(['serve', '--port', '99999'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--port must be a whole number from 0 to 65535/)
  })

  it('serves the API until SIGTERM, then exits 0', async () => {
    const { child, url } = await spawnServe([])
    const health = await fetch(`${url}/healthz`)
    expect(health.status).toBe(200)
    const search = await fetch(`${url}/v1/search?q=${encodeURIComponent('rust async')}`)
    expect(search.status).toBe(200)
    expect(((await search.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0)
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('--allowed-hosts adds names to loopback ones; other names and other sites get 403', async () => {
    const { child, url } = await spawnServe(['--allowed-hosts', 'search.lan,.corp.example'])
    try {
      const port = new URL(url).port
      expect(await statusOf(port, { host: 'search.lan' })).toBe(200)
      expect(await statusOf(port, { host: `a.corp.example:${port}` })).toBe(200)
      expect(await statusOf(port, { host: `localhost:${port}` })).toBe(200)
      expect(await statusOf(port, { host: 'evil.example' })).toBe(403)
      expect(await statusOf(port, { host: `localhost:${port}`, origin: 'https://evil.example' })).toBe(403)
    } finally {
      child.kill('SIGTERM')
    }
  })
})

/** `search-layer serve --port 0` in a child process, once it says where it listens. */
async function spawnServe(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--log-level', 'silent', ...args], { env: env() })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
      const m = /serving on (http:\/\/\S+) /.exec(stderr)
      if (m) resolve(m[1]!)
    })
    child.once('exit', () => reject(new Error(`serve exited early: ${stderr}`)))
  })
  return { child, url }
}

/** The status of GET /v1/history with these headers (fetch would not send another Host). */
function statusOf(port: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/history', headers }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('search-layer mcp (stdio)', () => {
  it('lists the tools and answers a web_search through the MCP SDK client', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: env(),
      stderr: 'pipe',
    })
    const client = new Client({ name: 'cli-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual([
        'answer',
        'extract_refs',
        'fetch_thread',
        'web_fetch',
        'web_search',
      ])
      const result = await client.callTool({
        name: 'web_search',
        arguments: { query: 'rust async runtime', max_results: 3 },
      })
      expect(result.isError).toBeFalsy()
      const text = (result.content as { type: string; text: string }[])[0]!.text
      expect(text).toMatch(/https?:\/\//)
    } finally {
      await client.close()
    }
  })
})

describe('search-layer skill', () => {
  it('installs SKILL.md, is idempotent, and will not overwrite a different file without --force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-skill-'))
    const first = await runBin(['skill', 'install', dir])
    expect(first.code).toBe(0)
    const installed = readFileSync(join(dir, 'SKILL.md'), 'utf8')
    expect(installed).toMatch(/^---\nname: search-layer/)
    expect((await runBin(['skill', 'install', dir])).code).toBe(0)
    writeFileSync(join(dir, 'SKILL.md'), 'my own notes')
    const refused = await runBin(['skill', 'install', dir])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--force')
    expect((await runBin(['skill', 'install', dir, '--force'])).code).toBe(0)
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(installed)
    const shown = await runBin(['skill', 'show'])
    expect(shown.stdout).toBe(installed)
  })
})
