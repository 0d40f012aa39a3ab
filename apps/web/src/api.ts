// The page's one door to the server: the bearer key (kept for this tab only), JSON calls and the search stream.
// The key travels in the Authorization header, never in a URL.

const KEY_STORAGE = 'search-layer:key'

/** The API key for this tab, if one was given. */
export const getKey = (): string | null => sessionStorage.getItem(KEY_STORAGE)
export const setKey = (key: string | null) =>
  key ? sessionStorage.setItem(KEY_STORAGE, key) : sessionStorage.removeItem(KEY_STORAGE)

/** An error the server answered with (its JSON body), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message)
  }
}

const listeners = new Set<() => void>()
/** Called whenever the server says the key is missing or wrong. */
export const onUnauthorized = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function headers(extra: Record<string, string> = {}): Headers {
  const h = new Headers(extra)
  const key = getKey()
  if (key) h.set('authorization', `Bearer ${key}`)
  return h
}

async function failure(response: Response): Promise<ApiError> {
  if (response.status === 401) for (const l of listeners) l()
  let body: { error?: string; code?: string } = {}
  try {
    body = await response.json()
  } catch {
    // Not JSON: the status says enough.
  }
  return new ApiError(body.error ?? `HTTP ${response.status}`, response.status, body.code)
}

/** A JSON call; throws `ApiError`. */
export async function api<T>(
  path: string,
  init: { method?: string; json?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: headers(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
      ...(init.signal && { signal: init.signal }),
    })
  } catch (error) {
    throw new ApiError(`The server did not answer: ${(error as Error).message}`, 0)
  }
  if (!response.ok) throw await failure(response)
  return (await response.json()) as T
}

/** One server-sent event. */
export interface StreamMessage {
  event: string
  data: unknown
}

/**
 * Posts `body` to `path` with `Accept: text/event-stream` and hands each event to `onMessage` as it arrives
 * (EventSource cannot POST nor send a bearer header, so this reads the stream itself). Throws `ApiError` when the
 * server refuses the request or cannot be reached; returns quietly when `signal` aborts it.
 */
export async function postStream(
  path: string,
  body: unknown,
  onMessage: (message: StreamMessage) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json', accept: 'text/event-stream' }),
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (signal.aborted) return
    throw new ApiError(`The server did not answer: ${(error as Error).message}`, 0)
  }
  if (!response.ok) throw await failure(response)
  if (!response.body) throw new ApiError('The server sent no stream', response.status)
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  while (true) {
    const { done, value } = await reader.read()
    if (done) break
    buffer += value
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const message = parseBlock(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
      if (message) onMessage(message)
      end = buffer.indexOf('\n\n')
    }
  }
}

/** A search streamed from `POST /v1/search` (see `postStream`). */
export function streamSearch(
  request: Record<string, unknown>,
  onEvent: (message: StreamMessage) => void,
  signal: AbortSignal,
): Promise<void> {
  return postStream('/v1/search', request, onEvent, signal)
}

function parseBlock(block: string): StreamMessage | undefined {
  let event = 'message'
  const data: string[] = []
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (data.length === 0) return undefined
  try {
    return { event, data: JSON.parse(data.join('\n')) }
  } catch {
    return undefined
  }
}

/** A source the server has registered, as `/readyz` lists it. */
export interface SourceInfo {
  name: string
  configured: boolean
  resting: boolean
}

/**
 * The sources this server can search with (registered and configured, in registry order), read from `/readyz`, so
 * the page offers exactly what the server has: plug-ins included, engines without a key left out. `/readyz` answers
 * 503 with the same body when nothing is configured; an unreachable server gives an empty list.
 */
export async function listSources(signal?: AbortSignal): Promise<SourceInfo[]> {
  try {
    const response = await fetch('/readyz', { headers: headers(), ...(signal && { signal }) })
    const body = (await response.json()) as { providers?: SourceInfo[] }
    return (body.providers ?? []).filter((p) => p.configured)
  } catch {
    return []
  }
}
