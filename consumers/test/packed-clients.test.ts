import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PackedProject, type StartedScript, packedProject } from './_packed-project'
import { ROOT } from './_published'

// Real clients nobody here wrote, against the packed tarballs installed by npm into fresh projects: what a user's
// first hour looks like. The emulator (this process) answers every upstream call.
const run = promisify(execFile)
const emu = useEmulator()
const ENGINES = ['brave', 'exa', 'tavily', 'grok'] as const
const isEngine = (service: string) => (ENGINES as readonly string[]).includes(service)
const INSTALL = 900_000 // a hang guard for a first install from the registry; a rerun installs nothing

/** The emulator's variables for a client process: the four keyed engines only, rate limits off, a fresh HOME. */
const clientEnv = (extra: Record<string, string> = {}) => ({
  ...emu.env,
  HOME: mkdtempSync(join(tmpdir(), 'sl-consumer-home-')),
  SEARCH_LAYER_KEYLESS: 'off',
  SEARCH_LAYER_RATE_LIMITS: 'off',
  BOCHA_API_KEY: '',
  ...extra,
})

/** A Node 22+ binary for AI SDK 7 (`engines: >=22`), from the npm registry like `pnpm test:node-versions`. */
async function node24(): Promise<string> {
  const script = `import(${JSON.stringify(join(ROOT, 'scripts/node-versions.mjs'))}).then((m) => console.log(m.nodeBinary(24)))`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
  return stdout.trim().split('\n').at(-1) as string // after npm's own lines on a first install
}

const lastJson = <T>(output: string): T => JSON.parse(output.trim().split('\n').at(-1) as string) as T

interface AiReport {
  major: number
  generateText: AiRun
  streamText: AiRun
}
interface AiRun {
  text: string
  toolError: boolean
  results: number
  seen: { type: string; toolName: string; output: { type: string; value: string } }[]
}

describe.each([5, 6, 7])('AI SDK %i with the packed tools package (aiSdkTools, a mock model)', (major) => {
  let project: PackedProject
  beforeAll(async () => {
    project = await packedProject(`ai-sdk-${major}`, ['@search-layer/tools'], { ai: `^${major}.0.0` })
  }, INSTALL)

  it('generateText and streamText call web_search, which runs against the emulator; the model sees its text', async () => {
    const output = await project.node('ai-sdk.mjs', {
      env: clientEnv(),
      ...(major >= 7 && { nodeBinary: await node24() }),
    })
    const report = lastJson<AiReport>(output)
    expect(report.major).toBe(major)
    for (const ran of [report.generateText, report.streamText]) {
      // AI SDK 5 once failed here: "Cannot read properties of undefined (reading 'isError')", and streamText hung.
      expect(ran.text).toBe('Tokio is the usual runtime.')
      expect(ran).toMatchObject({ toolError: false, results: 3 })
      expect(ran.seen).toEqual([
        {
          type: 'tool-result',
          toolName: 'web_search',
          output: { type: 'text', value: expect.stringContaining('[1] ') },
        },
      ])
    }
    expect(emu.requests.filter((r) => isEngine(r.service)).length).toBeGreaterThanOrEqual(2 * ENGINES.length)
  })
})

describe('the MCP SDK client and a generated OpenAPI client against the packed servers', () => {
  let project: PackedProject
  let server: StartedScript
  let serverUrl: string
  beforeAll(async () => {
    project = await packedProject('clients', ['@search-layer/mcp', '@search-layer/server'], {
      '@modelcontextprotocol/sdk': '^1.32.0',
      'openapi-fetch': '^0.15.0',
      'openapi-typescript': '^7.10.0',
      typescript: '~5.9.3',
      '@types/node': '^20.19.0',
    })
    server = await project.start('server.mjs', {
      env: clientEnv({ SERVER_DATA_DIR: mkdtempSync(join(tmpdir(), 'sl-consumer-data-')) }),
    })
    serverUrl = server.firstLine
  }, INSTALL)
  afterAll(async () => {
    await server?.stop()
  })

  const mcpEnv = () => clientEnv({ MCP_URL: `${serverUrl}/mcp`, PAGES_URL: emu.urls.pages })

  describe.each(['stdio', 'http'])('MCP over %s', (transport) => {
    it('lists tools with output schemas, no list-change notifications; every call passes the SDK validation', async () => {
      const report = lastJson<{
        tools: { name: string; outputSchema?: string }[]
        toolsListChanged: boolean
        resourcesListChanged: boolean
        results: Record<string, { isError: boolean; text: string; structuredKeys: string[] }>
      }>(await project.node('mcp-client.mjs', { args: [transport, 'calls'], env: mcpEnv() }))
      expect(report.tools.map((t) => t.name)).toEqual([
        'web_search',
        'web_fetch',
        'fetch_thread',
        'extract_refs',
        'answer',
      ])
      for (const tool of report.tools) expect(tool.outputSchema).toBe('object')
      expect(report).toMatchObject({ toolsListChanged: false, resourcesListChanged: false })
      for (const [name, result] of Object.entries(report.results)) {
        expect(result.isError, name).toBe(false)
        expect(result.structuredKeys.length, name).toBeGreaterThan(0)
      }
      // Read by the extraction worker from the packed page-fetch: the article's heading, not a degraded text.
      expect(report.results.web_fetch?.text).toContain('# Structured concurrency in async Rust')
    })

    it('a cancelled web_search stops its engine calls: none of them is answered', async () => {
      for (const engine of ENGINES) emu.latency(engine, 4_000)
      const client = await project.start('mcp-client.mjs', { args: [transport, 'cancel'], env: mcpEnv() })
      const upstream = () => emu.requests.filter((r) => isEngine(r.service))
      await expect.poll(() => upstream().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(ENGINES.length)
      client.send('cancel')
      expect(await client.stop()).toBe(0)
      // The client has its rejection: the cancel has reached the server. Calls queued behind a pace may start while
      // the cancel travels (a loaded host's README run saw 6 where 4 were out when it was sent); none may after.
      const cancelledAt = Date.now()
      expect(lastJson<{ outcome: string }>(client.stdout()).outcome, client.stderr()).toMatch(/^rejected/)
      // Each engine call ends (the emulator sees the hang-up) with no response sent; a call left running would be
      // answered with 200 after the 4 s latency.
      await expect.poll(() => upstream().every((r) => r.endedAt !== undefined), { timeout: 3_000 }).toBe(true)
      expect(upstream().map((r) => r.status)).toEqual(upstream().map(() => undefined))
      expect(upstream().filter((r) => r.startedAt > cancelledAt)).toEqual([]) // nothing new started after the cancel
    })
  })

  // openapi-typescript, tsc and the client: three Node processes, a hang guard for a loaded machine.
  it('openapi-typescript + openapi-fetch: a client typed from /openapi.json type-checks without casts and calls the server', {
    timeout: 120_000,
  }, async () => {
    const bin = (pkg: string, path: string) => join(project.dir, 'node_modules', pkg, path)
    await run(
      process.execPath,
      [bin('openapi-typescript', 'bin/cli.js'), `${serverUrl}/openapi.json`, '-o', 'schema.d.ts'],
      {
        cwd: project.dir,
      },
    )
    // tsc --strict over the client: a response typed as a union with a string, or untyped, fails here.
    await run(process.execPath, [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json'], { cwd: project.dir }).catch(
      (error: { stdout?: string }) => {
        throw new Error(`the generated client does not type-check:\n${error.stdout}`)
      },
    )
    const output = await project.node('out/openapi-client.js', { env: { SERVER_URL: serverUrl } })
    const report = lastJson<{
      postedUrls: string[]
      gotTitles: string[]
      refusedStatus: number
      refusal?: { code: string }
    }>(output)
    // `num` is what each engine is asked for; the merged list has at least that many.
    expect(report.postedUrls.length).toBeGreaterThanOrEqual(3)
    for (const url of report.postedUrls) expect(url).toMatch(/^https?:\/\//)
    expect(report.gotTitles.length).toBeGreaterThanOrEqual(2)
    expect(report.refusedStatus).toBe(400)
    expect(report.refusal?.code).toBe('invalid_input')
  })
})
