import { readFileSync } from 'node:fs'
import { INTENTS, type Intent } from '@search-layer/core'
import { classifyIntent } from '@search-layer/intent'
import type { ScenarioContext } from '../_context.js'
import type { VariantResult } from '../_report.js'

interface LabelledQuery {
  query: string
  intent: Intent
  split?: string
  lang?: 'en' | 'zh'
}

interface Graded extends LabelledQuery {
  rules: Intent
  combined: Intent
}

const SCENARIO = '5 intent accuracy'

/** A JSONL file of the intent package: the labelled sets live with the classifier they grade. */
function readSet(path: string): LabelledQuery[] {
  return readFileSync(new URL(`../../packages/intent/${path}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledQuery)
}

function grade(rows: readonly LabelledQuery[]): Graded[] {
  return rows.map((r) => ({
    ...r,
    lang: r.lang ?? (/\p{Script=Han}/u.test(r.query) ? 'zh' : 'en'),
    rules: classifyIntent(r.query, { model: false }).intent,
    combined: classifyIntent(r.query).intent,
  }))
}

function share(rows: readonly Graded[], by: 'rules' | 'combined'): number {
  return rows.length === 0 ? 0 : Math.round((rows.filter((r) => r[by] === r.intent).length / rows.length) * 1000) / 1000
}

/** One row: the rules alone (the baseline) and rules + learned model, side by side on the same queries. */
function row(variant: string, rows: readonly Graded[], extra: Record<string, unknown> = {}): VariantResult {
  const rules = share(rows, 'rules')
  const combined = share(rows, 'combined')
  return {
    scenario: SCENARIO,
    variant: `${variant} (${rows.length} queries)`,
    extra: { rules, combined, queries: rows.length, ...extra },
    note: `rules ${rules} → rules + model ${combined}`,
  }
}

/** Counts per expected intent (rows) and answered intent (columns, `INTENTS` order). */
function confusion(rows: readonly Graded[]): Record<Intent, number[]> {
  const matrix = Object.fromEntries(INTENTS.map((i) => [i, INTENTS.map(() => 0)])) as Record<Intent, number[]>
  for (const r of rows) matrix[r.intent][INTENTS.indexOf(r.combined)]!++
  return matrix
}

/** Accuracy per expected intent, the rules alone → rules + model. */
function perIntentRow(lang: string, rows: readonly Graded[]): VariantResult {
  const perIntent = Object.fromEntries(
    INTENTS.map((i) => {
      const part = rows.filter((r) => r.intent === i)
      return [i, { rules: share(part, 'rules'), combined: share(part, 'combined'), queries: part.length }]
    }),
  ) as Record<Intent, { rules: number; combined: number; queries: number }>
  return {
    scenario: SCENARIO,
    variant: `phrasing holdout per intent, ${lang} (${rows.length} queries)`,
    extra: { perIntent },
    note: INTENTS.map((i) => `${i} ${perIntent[i].rules} → ${perIntent[i].combined}`).join(', '),
  }
}

function confusionRow(lang: string, rows: readonly Graded[]): VariantResult {
  const matrix = confusion(rows)
  const cells = INTENTS.map((i) => `${i} ${matrix[i].join('·')}`).join('; ')
  return {
    scenario: SCENARIO,
    variant: `confusion, phrasing holdout ${lang} (${rows.length} queries)`,
    extra: { columns: INTENTS, matrix },
    note: `rules + model; expected → answered (${INTENTS.join('·')}): ${cells}`,
  }
}

/**
 * Accuracy of the rules alone and of rules + learned model on every labelled set: the original set (the spec's
 * phrasings), the hard set (real phrasing, tune and held-out splits), the phrasing set's holdout (per language, per
 * intent, and its confusion matrix per language) and the example queries.
 */
export function intentAccuracyRows(ctx: ScenarioContext): VariantResult[] {
  const original = grade(readSet('test/fixtures/original-queries.jsonl'))
  const hard = grade(readSet('test/fixtures/real-queries.jsonl'))
  const holdout = grade(readSet('data/queries.jsonl').filter((r) => r.split === 'holdout'))
  const byLang = (lang: string) => holdout.filter((r) => r.lang === lang)
  ctx.log(
    `intent accuracy on the phrasing holdout: rules ${share(holdout, 'rules')} → rules + model ${share(holdout, 'combined')}`,
  )
  return [
    row('original set', original),
    row(
      'hard set, tune split',
      hard.filter((r) => r.split === 'tune'),
    ),
    row(
      'hard set, holdout split',
      hard.filter((r) => r.split === 'holdout'),
    ),
    row('phrasing holdout, all', holdout),
    row('phrasing holdout, English', byLang('en')),
    row('phrasing holdout, Chinese', byLang('zh')),
    perIntentRow('all', holdout),
    perIntentRow('en', byLang('en')),
    perIntentRow('zh', byLang('zh')),
    confusionRow('en', byLang('en')),
    confusionRow('zh', byLang('zh')),
    row("issue 42's examples (a check set, never trained on)", grade(readSet('test/fixtures/issue-examples.jsonl'))),
    row('blind check set E (written blind, never trained on)', grade(readSet('test/fixtures/blind-e.jsonl'))),
  ]
}
