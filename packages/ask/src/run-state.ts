import type { Passage } from '@search-layer/passages'
import type { ReadingContext, SearchRead } from './reading.js'
import { PassageRegistry } from './registry.js'
import type { AskBudget, AskEvent, AskStep } from './schema.js'

/** Who hears about an ask while it runs: each step when it is recorded, each event as it happens. */
export interface AskRunHooks {
  onStep?: (step: AskStep) => void
  onEvent?: (event: AskEvent) => void
}

/** A tool step as the tools record it: with the call's id (pairs it with its start) and its result count. */
type ToolRecord = Omit<AskStep, 'n' | 'passages'> & { passages?: string[]; call?: string; results?: number }

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
    readonly hooks: AskRunHooks = {},
  ) {
    this.registry = new PassageRegistry(earlier)
    this.toolDeadline = AbortSignal.timeout(Math.floor(budget.timeMs * 0.75))
  }

  /** Notes what a search found that the answer is judged by later: its intent, its results' dates. */
  noteSearch(found: SearchRead): void {
    if (found.intent) this.intent ??= found.intent
    for (const r of found.results) if (r.publishedAt) this.dates.set(r.url, r.publishedAt)
  }

  /** Announces a tool call as it starts (`tool-start`); returns the call's id for its `record`. */
  startTool(tool: string, args: unknown, call?: string): string {
    const id = call ?? `call-${++this.#unnamedCalls}`
    this.#started.add(id)
    this.#emit({ type: 'tool-start', call: id, turn: this.#turn, at: this.elapsedMs(), tool, args })
    return id
  }

  /**
   * Records a tool step, numbering it, and announces its end (`tool-end`; a call never announced as started, such as
   * an invalid one, is announced first). During a model turn the step waits for the turn's own step.
   */
  record({ call, results, ...step }: ToolRecord): void {
    const full = { ...step, passages: step.passages ?? [] }
    const id = call && this.#started.has(call) ? call : this.startTool(step.tool ?? 'tool', step.args, call)
    this.#started.delete(id)
    this.#emit({
      type: 'tool-end',
      call: id,
      turn: this.#turn,
      at: this.elapsedMs(),
      tool: step.tool ?? 'tool',
      ok: step.ok,
      ms: step.ms,
      summary: step.summary,
      passages: full.passages,
      ...(results !== undefined && { results }),
      ...(!step.ok && { error: step.summary }),
    })
    if (this.#turnSteps) this.#turnSteps.push(full)
    else this.#push(full)
  }

  /** Starts a model turn (`turn-start`); the tool steps it causes are recorded after the turn itself. */
  beginTurn(tools: boolean): void {
    this.#turnSteps ??= []
    this.#turn = ++this.#turns
    this.#emit({ type: 'turn-start', turn: this.#turn, at: this.elapsedMs(), tools })
  }

  /** Ends a model turn (`turn-end`): records it, then the tool steps it caused, in order. */
  endTurn(step: Omit<AskStep, 'n' | 'passages'>, calls: string[]): void {
    this.#emit({
      type: 'turn-end',
      turn: this.#turn,
      at: this.elapsedMs(),
      ok: step.ok,
      ms: step.ms,
      summary: step.summary,
      calls,
      ...(step.tokens !== undefined && { tokens: step.tokens }),
    })
    this.#closeTurn({ ...step, passages: [] })
  }

  /** Ends a turn that never finished (the model call failed): `turn-end` with the reason, then its tool steps. */
  abandonTurn(reason: string, ms: number): void {
    if (!this.#turnSteps) return
    this.#emit({ type: 'turn-end', turn: this.#turn, at: this.elapsedMs(), ok: false, ms, summary: reason, calls: [] })
    this.#closeTurn(undefined)
  }

  #turnSteps: Omit<AskStep, 'n'>[] | undefined
  /** The model turn under way (0 outside one), and how many have started. */
  #turn = 0
  #turns = 0
  #unnamedCalls = 0
  readonly #started = new Set<string>()

  #closeTurn(turn: Omit<AskStep, 'n'> | undefined): void {
    const waiting = this.#turnSteps ?? []
    this.#turnSteps = undefined
    this.#turn = 0
    if (turn) this.#push(turn)
    for (const tool of waiting) this.#push(tool)
  }

  #emit(event: AskEvent): void {
    this.hooks.onEvent?.(event)
  }

  #push(step: Omit<AskStep, 'n'>): void {
    const full: AskStep = { ...step, n: this.steps.length + 1 }
    this.steps.push(full)
    this.hooks.onStep?.(full)
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
