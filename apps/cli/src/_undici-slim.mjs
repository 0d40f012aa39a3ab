// What the bundled CLI gets when a workspace package imports 'undici' (see tsup.config.ts).
//
// undici's index eagerly loads everything it offers (fetch, WebSocket, EventSource, the HTTP cache, mocks,
// every interceptor): ~530 KB of the CLI's search path, ~40 ms of every start-up. search-layer uses three
// names, and always passes its own dispatcher. The modules below are undici's own; the CLI build resolves them
// against the locked version, so a release that moves them fails the build, not a user's search.
import api from 'undici/lib/api/index.js'
import Agent from 'undici/lib/dispatcher/agent.js'
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js'
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js'

// What undici's index does on load, and what its dispatchers rely on: the proxy agent opens its tunnel with
// `client.connect()`, a method the index mixes into every dispatcher.
Object.assign(Dispatcher.prototype, api)
const dispatcherRequest = api.request

export { Agent, EnvHttpProxyAgent }

/**
 * undici's `request(url, options)` for callers that always name their dispatcher: the same options as the
 * dispatcher's own `request`, with the URL split into origin and path the way undici's top-level function does.
 */
export function request(url, options) {
  const dispatcher = options?.dispatcher
  if (!dispatcher) throw new TypeError('the CLI build of undici needs options.dispatcher')
  const target = typeof url === 'string' ? new URL(url) : url
  const { dispatcher: _, ...rest } = options
  return dispatcherRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: rest.method || (rest.body ? 'PUT' : 'GET'),
  })
}
