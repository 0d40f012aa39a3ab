import type { Command } from '../_command.js'
import { providersCommand } from './providers.js'

/** Every subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [providersCommand]
