import { APICallError, RetryError } from 'ai'

/** Why the model did not write the answer, as one sentence for the user; the key never appears in it. */
export function modelFailureNote(error: unknown, endpoint: { url: string; apiKey?: string }): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error
  const host = hostOf(endpoint.url)
  let note: string
  if (APICallError.isInstance(cause) && cause.statusCode !== undefined) {
    const status = cause.statusCode
    note =
      status === 401 || status === 403
        ? `The model at ${host} refused the key (HTTP ${status}): check SEARCH_LAYER_LLM_KEY.`
        : status === 404
          ? `The model at ${host} was not found (HTTP 404): check SEARCH_LAYER_LLM_MODEL and SEARCH_LAYER_LLM_URL.`
          : status === 429
            ? `The model at ${host} is rate limited (HTTP 429): try again later.`
            : `The model at ${host} failed (HTTP ${status}).`
  } else if (isAbort(cause)) {
    note = 'The model ran out of time.'
  } else if (APICallError.isInstance(cause) || isNetworkError(cause)) {
    note = `The model at ${host} could not be reached: check SEARCH_LAYER_LLM_URL.`
  } else {
    const message = cause instanceof Error ? cause.message : String(cause)
    note = `The model failed: ${message.replace(/\s+/g, ' ').slice(0, 200)}`
  }
  return redact(note, endpoint.apiKey)
}

// undici's connection failures (refused, unknown host, reset, socket timeouts) carry a code.
function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (/^E[A-Z]+$/.test(code) || code.startsWith('UND_ERR_'))
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'the configured URL'
  }
}

/** Removes the key from a message, whatever quoted it. */
export function redact(text: string, key: string | undefined): string {
  return key && key.length >= 4 ? text.split(key).join('[key]') : text
}
