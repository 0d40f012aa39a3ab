import type { Command } from '../_command.js'
import { expandCommand } from './expand.js'
import { intentCommand } from './intent.js'
import { providersCommand } from './providers.js'
import { searchCommand } from './search.js'

/** Every subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [searchCommand, intentCommand, expandCommand, providersCommand]
