import type { Fault } from './types.js'

/**
 * Brave's rate-limit headers on a paid plan: 20 requests a second. The emulator answers as the free plan (one request
 * a second), which a search learns and keeps to.
 */
export const BRAVE_PAID_PLAN_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-ratelimit-limit': '20, 20000000',
  'x-ratelimit-policy': '20;w=1, 20000000;w=2592000',
  'x-ratelimit-remaining': '19, 19999999',
  'x-ratelimit-reset': '1, 1419200',
})

/** One of Brave's web results, as its API writes it. */
export interface BraveWebResult {
  title: string
  url: string
  description?: string
  [field: string]: unknown
}

/**
 * A fault that makes Brave answer every query with these web results on the paid plan. A test of what is done with
 * the results then does not wait a second between a search's sub-queries, which is what the free plan's pace costs
 * (three sub-queries: two seconds). Tests of pacing itself keep the emulator's own free-plan answer.
 */
export function braveAnswer(results: readonly BraveWebResult[], fault: Omit<Fault, 'reply'> = {}): Fault {
  const web = { type: 'search', results: results.map((result) => ({ type: 'search_result', ...result })) }
  return { ...fault, reply: { body: JSON.stringify({ type: 'search', web }), headers: { ...BRAVE_PAID_PLAN_HEADERS } } }
}
