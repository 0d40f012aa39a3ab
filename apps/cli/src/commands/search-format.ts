import type { ParsedCommandArgs } from '../args.js'

/**
 * What a search prints: `--json` (JSON), `--format`, else markdown on a terminal and JSON otherwise. Also the search
 * script's code cache variant (search.ts): a JSON search's cache lacks the markdown formatting a terminal's runs.
 */
export function searchOutputFormat(values: ParsedCommandArgs['values'], isTTY: boolean | undefined): string {
  if (values.json) return 'json'
  return (values.format as string | undefined) ?? (isTTY ? 'markdown' : 'json')
}
