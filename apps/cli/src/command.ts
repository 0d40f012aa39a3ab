import type { CommandSpec, ParsedCommandArgs } from './args.js'
import type { CliIo } from './io.js'

/** A subcommand: its spec (flags, help) and what it does. Returns the exit code. */
export interface Command extends CommandSpec {
  run(args: ParsedCommandArgs, io: CliIo): Promise<number>
}
