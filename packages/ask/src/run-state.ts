import type { Passage } from '@search-layer/passages'
import type { ReadingContext, SearchRead } from './reading.js'
import { PassageRegistry } from './registry.js'
import type { AskBudget, AskStep } from './schema.js'

/** The state of one ask while it runs: its passages, steps, searches and what it has spent. */
export class AskRun {
  readonly registry: PassageRegistry
  readonly steps: AskStep[] = []
  readonly searched: string[] = []
  readonly startedAt = Date.now()
  toolCalls = 0
  rounds = 0
  inputTokens = 0
  outputTokens = 0
  invalidToolCalls = 0
  /** The intent of the first search that had one: decides whether freshness is judged. */
  intent: string | undefined
  /** Each result's date by URL, for the freshness of the cited pages. */
  readonly dates = new Map<string, string>()
  /** Aborts tool calls once three quarters of the time budget are gone: the rest is the answer's. */
  readonly toolDeadline: AbortSignal

  constructor(
    readonly reading: ReadingContext,
    readonly budget: AskBudget,
    earlier: readonly Passage[] = [],
    readonly onStep?: (step: AskStep) => void,
  ) {
    this.registry = new PassageRegistry(earlier)
    this.toolDeadline = AbortSignal.timeout(Math.floor(budget.timeMs * 0.75))
  }

  /** Notes what a search found that the answer is judged by later: its intent, its results' dates. */
  noteSearch(found: SearchRead): void {
    if (found.intent) this.intent ??= found.intent
    for (const r of found.results) if (r.publishedAt) this.dates.set(r.url, r.publishedAt)
  }

  /** Records a step, numbering it; during a model turn, tool steps wait for the turn's own step. */
  record(step: Omit<AskStep, 'n' | 'passages'> & { passages?: string[] }): void {
    const full = { ...step, passages: step.passages ?? [] }
    if (this.#turnSteps) this.#turnSteps.push(full)
    else this.#push(full)
  }

  /** Starts a model turn: the tool steps it causes are recorded after the turn itself. */
  beginTurn(): void {
    this.#turnSteps ??= []
  }

  /** Ends a model turn: records it, then the tool steps it caused, in order. */
  endTurn(step: Omit<AskStep, 'n' | 'passages'>): void {
    const waiting = this.#turnSteps ?? []
    this.#turnSteps = undefined
    this.#push({ ...step, passages: [] })
    for (const tool of waiting) this.#push(tool)
  }

  /** Records the tool steps of a turn that never finished (the model call failed). */
  abandonTurn(): void {
    const waiting = this.#turnSteps ?? []
    this.#turnSteps = undefined
    for (const tool of waiting) this.#push(tool)
  }

  #turnSteps: Omit<AskStep, 'n'>[] | undefined

  #push(step: Omit<AskStep, 'n'>): void {
    const full: AskStep = { ...step, n: this.steps.length + 1 }
    this.steps.push(full)
    this.onStep?.(full)
  }

  /** The signal a tool call runs under: the loop's own, cut at the tool deadline. */
  toolSignal(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.toolDeadline]) : this.toolDeadline
  }

  elapsedMs(): number {
    return Date.now() - this.startedAt
  }

  get tokens(): number {
    return this.inputTokens + this.outputTokens
  }
}
