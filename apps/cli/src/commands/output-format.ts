import type { ParsedCommandArgs } from '../args.js'
import { UsageError } from '../io.js'

/**
 * What a command prints (search, fetch, thread, ask): JSON with `--json` or `--format json`, markdown with
 * `--format markdown`, else markdown on a terminal and JSON when piped. Also the search script's code cache variant
 * (search.ts): a JSON search's cache lacks the markdown formatting a terminal's runs.
 * @throws UsageError when `--json` and `--format markdown` are both given: neither is picked in silence.
 */
export function outputFormat(values: ParsedCommandArgs['values'], isTTY: boolean | undefined): 'json' | 'markdown' {
  const format = values.format as 'json' | 'markdown' | undefined
  if (values.json && format === 'markdown')
    throw new UsageError('--json and --format markdown disagree; give one of them')
  if (values.json) return 'json'
  return format ?? (isTTY ? 'markdown' : 'json')
}
