import type { Env } from '@search-layer/core'
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici'

/** Largest model response read (bytes): its output is untrusted, so it is bounded. */
const MAX_MODEL_RESPONSE_BYTES = 4 * 1024 * 1024

let directAgent: Agent | undefined

/**
 * undici's own dispatcher for the model: a proxy agent when `HTTP(S)_PROXY` is set, else one keep-alive agent. Not
 * core's `dispatcherFor`: the CLI bundle gives core a node:http dispatcher that undici's `request` cannot drive.
 */
function modelDispatcher(env: Env): Dispatcher {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy
  if (!httpProxy && !httpsProxy) {
    directAgent ??= new Agent({ keepAliveTimeout: 10_000 })
    return directAgent
  }
  const noProxy = env.NO_PROXY ?? env.no_proxy
  return new EnvHttpProxyAgent({
    ...(httpProxy && { httpProxy }),
    ...(httpsProxy && { httpsProxy }),
    ...(noProxy !== undefined && { noProxy }),
  })
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries())
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  return headers
}

/**
 * A `fetch` for the AI SDK's provider on undici's `request` (the proxy variables apply to the model as to every
 * other call), reading at most 4 MiB of the reply. `request` is the part of undici every
 * build of search-layer carries (the CLI bundles a slim undici without `fetch`).
 */
export function modelFetch(env: Env): typeof fetch {
  const dispatcher = modelDispatcher(env)
  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const res = await request(url, {
      method: (init?.method ?? 'GET') as 'GET',
      headers: headerRecord(init?.headers),
      ...(typeof init?.body === 'string' && { body: init.body }),
      ...(init?.signal && { signal: init.signal }),
      dispatcher,
    })
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length
      if (size > MAX_MODEL_RESPONSE_BYTES) {
        res.body.destroy()
        throw new Error(`the model's reply is larger than ${MAX_MODEL_RESPONSE_BYTES} bytes`)
      }
      chunks.push(chunk as Buffer)
    }
    const empty = res.statusCode === 204 || res.statusCode === 304
    return new Response(empty ? null : Buffer.concat(chunks), {
      status: res.statusCode,
      headers: responseHeaders(res.headers),
    })
  }) as typeof fetch
}
