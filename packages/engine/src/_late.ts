import type { Evidence } from '@search-layer/evidence'
import { type AssembleContext, assembleResults, buildResponse, reportCalls } from './_assemble.js'
import type { FanOutResult } from './_fan-out.js'
import { keylessOnlyNotice } from './_enlist.js'
import type { LayerParts } from './_layer.js'
import { describeOperators } from './_operators.js'
import type { Roster } from './_roster.js'
import type { Strategy } from './_strategy.js'
import type { ParsedSearchRequest } from './request.js'
import type { SearchResponse } from './response.js'

// Late answers are not wasted: where the layer lets late calls finish (a server), the response the search settled
// with goes out at once, and this builds the full one once those calls have ended (or the deadline came), for the
// cache and for a stream still listening.

/** What the full response needs from the run that settled. */
export interface LateRun {
  layer: LayerParts
  req: ParsedSearchRequest
  strategy: Strategy
  queries: string[]
  roster: Pick<Roster, 'reports' | 'active'>
  /** The run's warnings, still growing while the late calls run. */
  warnings: readonly string[]
  resting: readonly unknown[]
  noEngine: boolean
  assembleContext: () => AssembleContext
  scoring: Promise<typeof import('@search-layer/scoring')>
  /** What the settled search read (`read`): kept as it was, the late results are not read. */
  evidence?: Evidence
  startedAt: number
}

/** The response with every call's outcome, once the calls still running at the settle have ended. */
export async function respondLate(rest: Promise<FanOutResult>, run: LateRun): Promise<SearchResponse> {
  const gathered = await rest
  const { layer, roster, strategy } = run
  const now = layer.now()
  // The settled response holds the reports as they were; these are the run's own, filled in again.
  const reports = structuredClone(roster.reports)
  reportCalls({ reports, active: roster.active }, gathered, {
    deadlineMs: run.req.deadlineMs,
    elapsedMs: now - run.startedAt,
    now,
  })
  const assembled = assembleResults(gathered.outcomes, run.assembleContext(), await run.scoring)
  const called = [...roster.active.keys()]
  const definitions = new Map(layer.definitions.map((d) => [d.id, d]))
  const operatorReport = describeOperators(strategy.operators, called, definitions, assembled.enforcement)
  const keylessOnly = run.noEngine ? keylessOnlyNotice(layer, reports) : undefined
  return buildResponse({
    strategy,
    queries: run.queries,
    assembled,
    ...(operatorReport && { operatorReport }),
    reports,
    partial: run.resting.length > 0 || called.some((name) => reports[name]!.error !== undefined),
    warnings: run.warnings,
    ...(keylessOnly && { keylessOnly }),
    ...(run.evidence && { evidence: run.evidence }),
    totalMs: now - run.startedAt,
  })
}
