import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PassThrough } from 'node:stream'
import { runCli } from '../src/index.js'

export const BIN = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

/** Runs the CLI in-process with captured streams. */
export async function run(argv: string[], env: Record<string, string | undefined> = {}, stdinText?: string) {
  let stdout = ''
  let stderr = ''
  const stdin = new PassThrough()
  if (stdinText !== undefined) stdin.end(stdinText)
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    stdin,
    env: { HOME: '/nonexistent-home', ...env },
  })
  return { code, stdout, stderr }
}

/**
 * Runs the built bin in a fresh process, as a user would. `killAfterMs` is a hang guard, not a speed check: a
 * process still running then is killed and reported with `signal` set, so a test can say it never exited.
 */
export function runBin(
  argv: string[],
  env: Record<string, string | undefined> = {},
  input?: string,
  { killAfterMs = 0 }: { killAfterMs?: number } = {},
) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the CLI first (npx pnpm@10 build)`)
  return new Promise<{ code: number; stdout: string; stderr: string; signal: NodeJS.Signals | null }>((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...argv],
      { env: { PATH: process.env.PATH, HOME: '/nonexistent-home', ...env }, timeout: killAfterMs },
      (error, stdout, stderr) => {
        const signal = (error as { signal?: NodeJS.Signals | null } | null)?.signal ?? null
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, signal })
      },
    )
    if (input !== undefined) child.stdin?.end(input)
  })
}

/**
 * The emulator's variables for a CLI run, minus the LLM ones (so markdown uses the rule-based synthesis), with a
 * fresh HOME and cache directory and rate limits off; `extra` last.
 */
export function emulatorEnv(
  emuEnv: Readonly<Record<string, string | undefined>>,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    ...Object.fromEntries(Object.entries(emuEnv).filter(([k]) => !k.startsWith('SEARCH_LAYER_LLM_'))),
    HOME: mkdtempSync(join(tmpdir(), 'sl-cli-home-')),
    SEARCH_LAYER_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sl-cli-cache-')),
    SEARCH_LAYER_RATE_LIMITS: 'off',
    ...extra,
  }
}
