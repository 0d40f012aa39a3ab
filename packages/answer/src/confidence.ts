import { parseInput } from '@search-layer/core'
import { type Confidence, type ConfidenceInput, ConfidenceInputSchema, type ConfidenceLevel } from './schema.js'

const MAX_SITES_NAMED = 5

/**
 * How far an answer can be trusted: the share of its sentences that are supported, times the agreement of the
 * sites its supported sentences cite (three or more distinct hosts 1, two 0.85, one 0.65) and of the engines that
 * found them (one engine 0.9, when given). `high` from 0.75, `medium` from 0.45, `low` below, `none` when no
 * sentence is supported; an unverified sentence caps the level at `medium`. Pure; throws `InputError`.
 */
export function answerConfidence(input: ConfidenceInput): Confidence {
  const { counts, passages, engines } = parseInput(ConfidenceInputSchema, input, 'confidence input')
  const total = counts.supported + counts.unverified + counts.uncited
  const reasons: string[] = []
  if (total === 0) return { level: 'none', score: 0, reasons: ['the answer has no sentence to check'] }
  reasons.push(`${counts.supported} of ${total} ${plural(total, 'sentence')} supported by a verified citation`)
  if (counts.unverified > 0)
    reasons.push(`${counts.unverified} ${sentences(counts.unverified)} a passage or quote that was not found`)
  if (counts.uncited > 0) reasons.push(`${counts.uncited} ${sentences(counts.uncited)} nothing`)
  if (counts.supported === 0) return { level: 'none', score: 0, reasons }
  const sites = sitesOf(passages.flatMap((p) => [p.url, ...(p.sources ?? []).map((s) => s.url)]))
  const siteFactor = sites.length >= 3 ? 1 : sites.length === 2 ? 0.85 : 0.65
  reasons.push(
    sites.length === 0
      ? 'the cited passages were not given'
      : `cited passages come from ${sites.length} ${plural(sites.length, 'site')}: ${sites.slice(0, MAX_SITES_NAMED).join(', ')}${sites.length > MAX_SITES_NAMED ? ', …' : ''}`,
  )
  let engineFactor = 1
  if (engines !== undefined) {
    engineFactor = engines >= 2 ? 1 : 0.9
    reasons.push(`the cited pages were found by ${engines} ${plural(engines, 'engine')}`)
  }
  const score = Math.round((counts.supported / total) * siteFactor * engineFactor * 100) / 100
  return { level: levelOf(score, counts.unverified > 0), score, reasons }
}

function levelOf(score: number, anyUnverified: boolean): ConfidenceLevel {
  if (score >= 0.75) return anyUnverified ? 'medium' : 'high'
  return score >= 0.45 ? 'medium' : 'low'
}

/** Distinct hosts of the URLs, `www.` dropped, in order of first appearance. */
function sitesOf(urls: readonly string[]): string[] {
  const sites = new Set<string>()
  for (const url of urls) {
    try {
      sites.add(new URL(url).hostname.replace(/^www\./, ''))
    } catch {
      sites.add(url)
    }
  }
  return [...sites]
}

const sentences = (n: number): string => (n === 1 ? 'sentence cites' : 'sentences cite')
const plural = (n: number, word: string): string => (n === 1 ? word : `${word}s`)
