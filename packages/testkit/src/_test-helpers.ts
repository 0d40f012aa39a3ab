import type { Emulator } from './types.js'

/** POSTs JSON to an emulator URL. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  })
}

/** A valid request for each search vendor, for table-driven tests. */
export function vendorRequest(
  emu: Emulator,
  service: 'brave' | 'exa' | 'tavily' | 'grok',
  query = 'rust async',
  signal?: AbortSignal,
): Promise<Response> {
  switch (service) {
    case 'brave':
      return fetch(`${emu.urls.brave}/res/v1/web/search?q=${encodeURIComponent(query)}&count=5`, {
        headers: { 'X-Subscription-Token': emu.keys.brave, accept: 'application/json' },
        ...(signal && { signal }),
      })
    case 'exa':
      return postJson(`${emu.urls.exa}/search`, { query, numResults: 5 }, { 'x-api-key': emu.keys.exa }, signal)
    case 'tavily':
      return postJson(
        `${emu.urls.tavily}/search`,
        { query, max_results: 5 },
        { authorization: `Bearer ${emu.keys.tavily}` },
        signal,
      )
    case 'grok':
      return postJson(
        `${emu.urls.grok}/responses`,
        { model: 'grok-4-fast', input: query, tools: [{ type: 'web_search' }] },
        { authorization: `Bearer ${emu.keys.grok}` },
        signal,
      )
  }
}
