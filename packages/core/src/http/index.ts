// `@search-layer/core/http`: the machinery a provider calls upstream with. core's HTTP client (timeouts, size caps,
// retries with backoff, `Retry-After`, proxies, cassette record/replay), reading vendors' rate-limit headers,
// believable upstream waits and timers, request pacing for keyless services, a client's own throttle
// (`createSelfThrottle`), and the OpenAI-compatible chat client.
export { requestJson, requestText, errorFromStatus, retryHint, dispatcherFor } from '../http.js'
export type { HttpRequestOptions, HttpResponse, HttpErrorResponse, HttpTextResponse } from '../http-types.js'
export { parseRetryAfter, readRateLimitHeaders, resetDelayMs, unusableWaitHeaders } from '../rate-limit-headers.js'
export type { RateLimitReading } from '../rate-limit-headers.js'
export {
  upstreamWaitMs,
  upstreamTimeAt,
  timerMs,
  MAX_TIMER_MS,
  MAX_UPSTREAM_WAIT_MS,
  DEFAULT_MAX_KEY_REST_MS,
} from '../upstream-wait.js'
export { createMemoryPaceStore, nextPaceSlot, processPaceStore } from '../pace-store.js'
export type { PaceRequest, PaceStore } from '../pace-store.js'
export { createSelfThrottle } from '../self-throttle.js'
export type { SelfThrottle, SelfThrottleOptions } from '../self-throttle.js'
export { timeoutSignal } from '../timeout-signal.js'
export { chatCompletion, llmEndpointFromEnv, extractJsonObject } from '../llm.js'
export type { LlmEndpoint, ChatMessage, ChatCompletionOptions } from '../llm.js'
