import type { Env } from '@search-layer/core'

/** Where a command reads and writes; tests pass their own. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean }
  /** `columns`: a terminal's width, for the live status line. */
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number }
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: Env
}

/** A usage mistake: what was wrong and what is allowed. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message)
  }
}

export const EXIT = { ok: 0, failure: 1, usage: 2, allProvidersFailed: 3 } as const
