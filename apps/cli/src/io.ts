/**
 * Where a command reads and writes; tests pass their own. `env` is core's `Env` written out: the package's published
 * types are self-contained like its bundle (it has no dependencies to import a type from).
 */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean }
  /** `columns`: a terminal's width, for the live status line. */
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number }
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: Readonly<Record<string, string | undefined>>
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
