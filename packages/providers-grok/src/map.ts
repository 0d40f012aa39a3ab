// The provider's pure pieces, one job to a file (issue 37); this module gathers them so the client and the tests
// import from one place. The Responses API: `_responses.ts`, its citations `_citations.ts`. Chat
// completions: `_chat.ts`, the JSON list in the answer `_json-results.ts`. Shared by both: `_urls.ts` (titles,
// domain filters), `_cost.ts`, `_rate-limit.ts`, `_errors.ts`, `_types.ts`.
export { buildResponsesRequest, mapResponsesBody } from './_responses.js'
export { buildChatRequest, mapChatBody, readChatBody } from './_chat.js'
export { extractJsonResults } from './_json-results.js'
export { sentenceAround, stripCitationMarkers } from './_citations.js'
export { titleFromUrl } from './_urls.js'
export { estimateGrokCost } from './_cost.js'
export { mapGrokError } from './_errors.js'
