import { braveAnswer, type Emulator } from '@search-layer/testkit'

// Invented pages about an invented tool ("Zorblax"), so no answer can come from anywhere but these pages. Written
// for these tests.

const page = (title: string, paragraphs: string[]) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('')}</article></main></body></html>`

export const FACT = 'Zorblax 4.2 was released on 3 March 2026 by the Zorblax maintainers.'
export const DEEP_FACT =
  'The streaming parser was added because large configuration files exhausted the memory of Zorblax 4.1.'

const PAGES = {
  '/ask/zorblax-release': page('Zorblax 4.2 release notes', [
    `${FACT} It ships a new streaming parser for configuration files.`,
    'Support for Node 16 was dropped in this release, and the minimum supported version is now Node 20.',
    'Upgrading from 4.1 needs no configuration changes for most projects, according to the upgrade guide.',
  ]),
  '/ask/zorblax-design': page('Why Zorblax parses configuration as a stream', [
    `${DEEP_FACT} Users reported crashes with files above two gigabytes.`,
    'The new parser reads configuration in chunks of sixty-four kilobytes and keeps only the current section in memory.',
    'Benchmarks in the design note show memory use staying flat as configuration files grow.',
  ]),
} as const

/** Serves the pages and makes Brave (the only engine) find them for every query. */
export function seedSearch(emu: Emulator): void {
  for (const [path, body] of Object.entries(PAGES)) emu.pages.set(path, { body })
  const found: [path: string, title: string, description: string][] = [
    ['/ask/zorblax-release', 'Zorblax 4.2 release notes', 'Zorblax 4.2 is out with a streaming parser.'],
    ['/ask/zorblax-design', 'Why Zorblax parses configuration as a stream', 'Design note on the streaming parser.'],
  ]
  const results = found.map(([path, title, description]) => ({ title, url: `${emu.urls.pages}${path}`, description }))
  emu.fault('brave', braveAnswer(results))
}

/** An environment with Brave, the scripted model and the emulator's pages only. */
export function askEnv(emu: Emulator, home: string, extra: Record<string, string | undefined> = {}) {
  return {
    BRAVE_API_KEY: emu.env.BRAVE_API_KEY,
    BRAVE_API_URL: emu.env.BRAVE_API_URL,
    SEARCH_LAYER_LLM_URL: emu.env.SEARCH_LAYER_LLM_URL,
    SEARCH_LAYER_LLM_KEY: emu.env.SEARCH_LAYER_LLM_KEY,
    SEARCH_LAYER_LLM_MODEL: emu.env.SEARCH_LAYER_LLM_MODEL,
    SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1',
    SEARCH_LAYER_KEYLESS: 'off',
    SEARCH_LAYER_HISTORY_DIR: `${home}/conversations`,
    HOME: home,
    ...extra,
  }
}
