// What the bundled CLI gives @search-layer/core when it imports 'undici' (see tsup.config.ts): the provider calls
// of a search go through Node's built-in HTTP client, whose parser is native code, instead of undici's.
//
// Fast: undici parses HTTP with a WebAssembly build of llhttp that every process compiles and instantiates anew, and
// its client code is ~300 KB of the bundle to compile. A fresh CLI process making a dozen calls spends ~40 ms less
// CPU with node:http (measured: 12 keep-alive GETs on loopback, 128 → 85 ms of process CPU, Node 20).
// Falls back: a proxy from HTTP(S)_PROXY (`EnvHttpProxyAgent`) loads undici itself on its first call and sends
// through it, so proxies behave exactly as in the library. page-fetch keeps undici for its pinned-address agent.
//
// Core uses two names, `Agent` and `EnvHttpProxyAgent`, and sends with `dispatcher.dispatch(options, handler)`,
// its handler written to undici's handler API (onRequestStart, onResponseStart, onResponseData, onResponseEnd,
// onResponseError), plus onRequestSent, which core's handler reads when onRequestStart's context says `sentLater`.
// `Agent.dispatch` drives that handler from a node:http request.
import { createRequire } from 'node:module'

const builtin = createRequire(import.meta.url)
// undici's keep-alive defaults, as core configures them: idle sockets closed after keepAliveTimeout.
const DEFAULT_KEEP_ALIVE_MS = 4_000

/** A keep-alive agent per protocol, made on first use so a search over http:// never loads node:https (and TLS). */
export class Agent {
  #options
  #agents = new Map()

  constructor(options = {}) {
    this.#options = options
  }

  /** The node:http(s) agent for a URL's protocol. */
  nodeAgentFor(protocol) {
    let agent = this.#agents.get(protocol)
    if (!agent) {
      const module = builtin(protocol === 'https:' ? 'node:https' : 'node:http')
      agent = new module.Agent({ keepAlive: true, timeout: this.#options.keepAliveTimeout ?? DEFAULT_KEEP_ALIVE_MS })
      this.#agents.set(protocol, agent)
    }
    return agent
  }

  /** undici's `dispatch`: sends `{ origin, path, method, headers, body }` and reports to `handler` as undici would. */
  dispatch(options, handler) {
    const target = new URL(options.path, options.origin)
    const { request: send } = builtin(target.protocol === 'https:' ? 'node:https' : 'node:http')
    const agent = this.nodeAgentFor(target.protocol)
    const req = send(target, { method: options.method, headers: options.headers, agent })
    const controller = new NodeHttpController(req)
    const failed = (error) => handler.onResponseError?.(controller, error)
    req.on('error', failed)
    // undici tells onRequestStart as it writes the request; here it comes at once, so that an attempt given up while
    // still connecting is aborted at once, and onRequestSent tells when the request is written (a search starts
    // work that waits for the answers then).
    req.on('finish', () => handler.onRequestSent?.())
    req.on('response', (res) => {
      handler.onResponseStart?.(controller, res.statusCode, res.headers, res.statusMessage)
      res.on('data', (chunk) => handler.onResponseData?.(controller, chunk))
      res.on('end', () => handler.onResponseEnd?.(controller, res.trailers))
      res.on('error', failed)
      // A socket closed mid-body ends the response without 'end'.
      res.on('close', () => res.complete || failed(new Error('the connection closed before the answer ended')))
    })
    handler.onRequestStart?.(controller, { sentLater: true })
    req.end(options.body ?? undefined)
    return true
  }

  close() {
    for (const agent of this.#agents.values()) agent.destroy()
    this.#agents.clear()
    return Promise.resolve()
  }

  destroy() {
    return this.close()
  }
}

/** undici's EnvHttpProxyAgent, loaded with undici on the first call that needs it. */
export class EnvHttpProxyAgent {
  #options
  #agent

  constructor(options = {}) {
    this.#options = options
  }

  /** undici's `dispatch` through this agent's undici twin, loaded on the first call. */
  dispatch(options, handler) {
    import('./_undici-slim.mjs').then(
      (undici) => {
        this.#agent ??= new undici.EnvHttpProxyAgent(this.#options)
        this.#agent.dispatch(options, handler)
      },
      (error) => handler.onResponseError?.(undefined, error),
    )
    return true
  }

  async close() {
    await this.#agent?.close()
  }

  async destroy() {
    await this.#agent?.destroy()
  }
}

/** undici's dispatch controller over a node:http request: aborting destroys the request with the reason. */
class NodeHttpController {
  #req
  #reason = null

  constructor(req) {
    this.#req = req
  }

  get aborted() {
    return this.#reason !== null
  }

  get paused() {
    return false
  }

  get reason() {
    return this.#reason
  }

  abort(reason) {
    if (this.#reason !== null) return
    this.#reason = reason
    this.#req.destroy(reason)
  }

  // Answers are read whole as they arrive: nothing here ever pauses.
  pause() {}

  resume() {}
}
