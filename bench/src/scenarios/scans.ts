import { ADVERSARIAL_TEXTS, measureGrowth } from '@search-layer/testkit'
import { extractRefs } from '@search-layer/thread-fetch'
import type { ScenarioContext } from '../_context.js'
import type { VariantResult } from '../_report.js'

// Comments anyone can post on a public issue; each made extractRefs quadratic before its scans were rewritten.
const INPUTS = [
  'url + closing parens',
  'unclosed <!--',
  '#1 on one line',
  'GH-1 on one line',
  'many URLs',
  'many autolinks',
  'open brackets',
  'link without close',
  'backticks',
  'fence without newline',
  'spaces without newline',
] as const

/**
 * Scenario 9: reference extraction on adversarial comments at n, 2n and 4n (CPU ms, fastest of several runs).
 * Linear scans grow about 2x per doubling; the ratio t(4n)/t(n) is the figure to watch (4 linear, 16 quadratic).
 */
export async function scansScenario(ctx: ScenarioContext): Promise<VariantResult[]> {
  const results: VariantResult[] = []
  for (const name of INPUTS) {
    const growth = measureGrowth(ADVERSARIAL_TEXTS[name]!, (text) => extractRefs(text, { repo: 'o/r' }), {
      n: 2000,
      runs: ctx.quick ? 3 : 7,
    })
    const [n, n2, n4] = growth.sizes
    const [t, t2, t4] = growth.cpuMs.map((ms) => Math.round(ms * 100) / 100) as [number, number, number]
    const chars = ADVERSARIAL_TEXTS[name]!(n).length
    ctx.log(`scans: ${name}: ${t} / ${t2} / ${t4} ms at n=${n}, ${n2}, ${n4} (x${growth.ratio.toFixed(1)})`)
    results.push({
      scenario: '9 adversarial scans',
      variant: `extractRefs: ${name}`,
      extra: { sizes: growth.sizes, chars, cpuMs: growth.cpuMs, wallMs: growth.wallMs, ratio: growth.ratio },
      note: `n=${n} (${chars} chars): ${t} ms, 2n: ${t2} ms, 4n: ${t4} ms; t(4n)/t(n) ${growth.ratio.toFixed(1)}`,
    })
  }
  return results
}
