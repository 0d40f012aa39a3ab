import { abstention, checkAnswer, extractiveAnswer } from '@search-layer/answer'
import type { Passage } from '@search-layer/passages'
import { messageOf, searchAndRead } from './reading.js'
import type { AskRun } from './run-state.js'
import type { AskResult } from './schema.js'

/** The answer part of a result, before usage and confidence. */
export type Draft = Pick<AskResult, 'answer' | 'mode' | 'sentences' | 'counts' | 'abstained'> & { modelNote?: string }

// `@search-layer/answer` takes questions and searches up to its own bounds; longer ones are cut for it.
const forAnswer = (question: string) => question.slice(0, 1_000)
const searchedForAnswer = (searched: readonly string[]) => searched.slice(0, 20).map((q) => q.slice(0, 200))

/** Searches for the question itself and reads, when the run has no passage yet (no model, or one that never read). */
async function searchForExtractive(run: AskRun, question: string): Promise<void> {
  const started = Date.now()
  const query = question.slice(0, 500)
  run.searched.push(query)
  const call = run.startTool('web_search', { query })
  try {
    const found = await searchAndRead(run.reading, query, run.toolSignal(undefined))
    run.noteSearch(found)
    const passages = run.registry.add(found.passages)
    const read = found.reads.filter((r) => r.ok).length
    run.record({
      kind: 'tool',
      tool: 'web_search',
      args: { query },
      call,
      results: found.results.length,
      summary: `${found.results.length} results, ${read}/${found.reads.length} pages read, ${passages.length} passages`,
      passages: passages.map((p) => p.id),
      ok: true,
      ms: Date.now() - started,
    })
  } catch (error) {
    const summary = `failed: ${messageOf(error)}`
    const step = { kind: 'tool' as const, tool: 'web_search', args: { query }, call }
    run.record({ ...step, summary, ok: false, ms: Date.now() - started })
  }
}

/** The abstention: says that nothing read supports an answer, and what was searched. */
function abstained(question: string, run: AskRun, mode: Draft['mode'], note: { modelNote?: string }): Draft {
  const { answer, sentences, counts } = abstention(forAnswer(question), searchedForAnswer(run.searched))
  return { answer, mode, sentences, counts, abstained: true, ...note }
}

/** The extractive answer from what the run read, searching first when it read nothing; abstains when nothing holds. */
export async function extractiveDraft(run: AskRun, question: string, modelNote: string | undefined): Promise<Draft> {
  if (run.steps.every((s) => s.passages.length === 0)) await searchForExtractive(run, question)
  const passages: Passage[] = run.registry.all().slice(0, 200)
  const note = modelNote ? { modelNote } : {}
  const made = extractiveAnswer(forAnswer(question), passages)
  if (made.counts.supported === 0) return abstained(question, run, 'extractive', note)
  return {
    answer: made.answer,
    sentences: made.sentences,
    counts: made.counts,
    mode: 'extractive',
    abstained: false,
    ...note,
  }
}

/** The model's answer, checked; a model that read something yet supports no sentence abstains. */
export function modelDraft(run: AskRun, question: string, text: string): Draft {
  const checked = checkAnswer(text, run.registry.all().slice(0, 200))
  const readSomething = run.steps.some((s) => s.kind === 'tool' && s.ok)
  if (readSomething && checked.counts.supported === 0) return abstained(question, run, 'model', {})
  return {
    answer: checked.answer,
    sentences: checked.sentences,
    counts: checked.counts,
    mode: 'model',
    abstained: false,
  }
}
