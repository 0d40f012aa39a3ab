// What the bundled CLI gives @search-layer/core when it imports 'undici' (see tsup.config.ts): the provider calls
// of a search go through Node's built-in HTTP client, whose parser is native code, instead of undici's.
//
// Fast: undici parses HTTP with a WebAssembly build of llhttp that every process compiles and instantiates anew, and
// its client code is ~300 KB of the bundle to compile. A fresh CLI process making a dozen calls spends ~40 ms less
// CPU with node:http (measured: 12 keep-alive GETs on loopback, 128 → 85 ms of process CPU, Node 20).
// Falls back: a proxy from HTTP(S)_PROXY (`EnvHttpProxyAgent`) loads undici itself on its first call and sends
// through it, so proxies behave exactly as in the library. page-fetch keeps undici for its pinned-address agent.
//
// Core uses three names with `options.dispatcher` always given, and reads `statusCode`, `headers` and a `body`
// that is async-iterable and has `destroy()`: node:http's IncomingMessage is all of that.
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

  /** undici's `request` and this agent's undici twin. */
  async undici() {
    const undici = await import('./_undici-slim.mjs')
    this.#agent ??= new undici.EnvHttpProxyAgent(this.#options)
    return { request: undici.request, dispatcher: this.#agent }
  }

  async close() {
    await this.#agent?.close()
  }

  async destroy() {
    await this.#agent?.destroy()
  }
}

/** undici's `request(url, { method, headers, body, signal, dispatcher })`, answered by node:http. */
export async function request(url, options) {
  const { dispatcher, method = 'GET', headers, body, signal } = options ?? {}
  if (dispatcher instanceof EnvHttpProxyAgent) {
    const proxied = await dispatcher.undici()
    return proxied.request(url, { ...options, dispatcher: proxied.dispatcher })
  }
  if (!(dispatcher instanceof Agent)) throw new TypeError('the CLI build of undici needs options.dispatcher')
  const target = typeof url === 'string' ? new URL(url) : url
  const agent = dispatcher.nodeAgentFor(target.protocol)
  const { request: send } = builtin(target.protocol === 'https:' ? 'node:https' : 'node:http')
  return new Promise((resolve, reject) => {
    const req = send(target, { method, headers, agent, signal }, (res) => {
      resolve({ statusCode: res.statusCode, headers: res.headers, body: res })
    })
    req.on('error', reject)
    req.end(body)
  })
}
