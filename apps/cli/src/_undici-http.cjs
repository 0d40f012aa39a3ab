'use strict'
// What the bundled CLI gives undici for `require('node:http')` (see tsup.config.ts). undici reads two names from
// node:http when it loads, and loading node:http for them brings Node's whole HTTP server, client and agent:
// ~5 ms of every search's start-up (measured). The two names:
// - `maxHeaderSize`: Node's --max-http-header-size, undici's default limit on response headers. It is Node's
//   default unless the flag was given (on the command line or in NODE_OPTIONS); then node:http itself answers.
// - `IncomingMessage`: undici clears the socket of a request body that is an incoming HTTP message before
//   destroying it. search-layer's request bodies are strings, never incoming messages, so nothing matches it.

const FLAG = '--max-http-header-size'
// Node's default since v14 (lib/internal/options: 16 KiB).
const NODE_DEFAULT_MAX_HEADER_SIZE = 16 * 1024

/** Whether Node was started with --max-http-header-size, in its arguments or in NODE_OPTIONS. */
function headerSizeFlagGiven(execArgv, nodeOptions) {
  const given = (arg) => arg === FLAG || arg.startsWith(`${FLAG}=`)
  return (
    execArgv.some(given) ||
    String(nodeOptions ?? '')
      .split(/\s+/)
      .some(given)
  )
}

/** Node's --max-http-header-size for this process, loading node:http only when the flag changed it. */
function maxHeaderSizeOf(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS) {
  return headerSizeFlagGiven(execArgv, nodeOptions) ? require('node:http').maxHeaderSize : NODE_DEFAULT_MAX_HEADER_SIZE
}

/** Stands in for node:http's IncomingMessage in undici's identity check; no request body is ever one. */
class IncomingMessage {}

module.exports = { IncomingMessage, maxHeaderSize: maxHeaderSizeOf(), maxHeaderSizeOf }
