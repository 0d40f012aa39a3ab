import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../io.js'

// The bundle lives in dist/; SKILL.md ships beside it at the package root (tests run from src/, same depth).
const SKILL_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'SKILL.md')

export const skillCommand: Command = {
  name: 'skill',
  summary: 'Install the agent skill file (SKILL.md) so agent runtimes that load skills can call this CLI.',
  usage: 'search-layer skill install [dir] [--force]   |   search-layer skill show',
  flags: {
    force: { type: 'boolean', description: 'overwrite a different SKILL.md already in the directory' },
    help: { type: 'boolean', short: 'h', description: 'show this help' },
  },
  examples: [
    'search-layer skill install                      # ~/.claude/skills/search-layer/SKILL.md',
    'search-layer skill install ~/.openclaw/workspace/skills/search-layer',
  ],
  async run(args, io) {
    const [action, dir, ...extra] = args.positionals
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`)
    const skill = readFileSync(SKILL_FILE, 'utf8')
    if (action === 'show') {
      io.stdout.write(skill)
      return EXIT.ok
    }
    if (action !== 'install') throw new UsageError(`skill takes "install [dir]" or "show" (got "${action ?? ''}")`)
    const target = resolve(dir ?? join(io.env.HOME ?? homedir(), '.claude', 'skills', 'search-layer'), 'SKILL.md')
    // Loaded here: it needs node:crypto, which every other command's start-up would otherwise load (~2 ms).
    const { installSkillFile } = await import('./skill-file.js')
    installSkillFile(target, skill, { force: Boolean(args.values.force) })
    io.stdout.write(`installed ${target}\n`)
    return EXIT.ok
  },
}
