import type { Command } from '../command.js'
import { askCommand } from './ask.js'
import { expandCommand } from './expand.js'
import { intentCommand } from './intent.js'
import { mcpCommand } from './mcp.js'
import { providersCommand } from './providers.js'
import { serveCommand } from './serve.js'
import { skillCommand } from './skill.js'
import { searchCommand } from './search.js'
import { chainCommand, fetchCommand, refsCommand, threadCommand } from './threads.js'

/** Every subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  searchCommand,
  askCommand,
  threadCommand,
  refsCommand,
  chainCommand,
  fetchCommand,
  intentCommand,
  expandCommand,
  providersCommand,
  serveCommand,
  mcpCommand,
  skillCommand,
]
