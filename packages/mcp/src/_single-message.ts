/**
 * Reads the one JSON-RPC message of a Streamable HTTP POST, refusing batches.
 *
 * MCP 2025-06-18 removed JSON-RPC batching (and 2025-11-25, the SDK's latest, keeps it out), yet the SDK transport
 * still runs up to 100 messages from one array. Behind a per-request rate limit that made one POST worth 100
 * `tools/call`s, so an array is answered with a JSON-RPC "Invalid Request" before any message runs: one POST is one
 * message, and a limit on requests is a limit on calls.
 */

/** Largest body read, as the SDK's own default (4 MiB). */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024

/** The message, or the JSON-RPC error response to send instead. */
export type SingleMessage = { ok: true; message: unknown } | { ok: false; response: Response }

const rpcError = (status: number, code: number, message: string): SingleMessage => ({
  ok: false,
  response: Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status }),
})

const BATCH_REFUSED =
  'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per POST'

/** Reads at most `maxBytes` of the body and parses it as one JSON-RPC message (not an array). */
export async function readSingleMessage(request: Request, maxBytes = MAX_MESSAGE_BYTES): Promise<SingleMessage> {
  const text = await readBoundedText(request, maxBytes)
  if (text === undefined)
    return rpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`)
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return rpcError(400, -32700, 'Parse error: Invalid JSON')
  }
  if (Array.isArray(message)) return rpcError(400, -32600, BATCH_REFUSED)
  return { ok: true, message }
}

// Stops reading as soon as the body is over the limit: a declared or streamed giant body is never buffered.
async function readBoundedText(request: Request, maxBytes: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > maxBytes) return undefined
  if (!request.body) return ''
  const reader = request.body.getReader()
  const decoder = new TextDecoder()
  let received = 0
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.byteLength
      if (received > maxBytes) {
        await reader.cancel().catch(() => {})
        return undefined
      }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    reader.releaseLock()
  }
  return text + decoder.decode()
}
