import * as scoring from '@search-layer/scoring'
import { describe, expect, it } from 'vitest'
import { type AssembleContext, assembleResults } from './_assemble.js'
import type { CallOutcome } from './_fan-out.js'
import type { ParsedSearchRequest } from './request.js'

const context: AssembleContext = {
  req: { explain: false } as ParsedSearchRequest,
  baseQuery: 'rust async',
  queries: ['rust async', 'rust async overview'],
  classification: null,
  now: new Date('2026-12-07T00:00:00Z'),
  providers: ['exa', 'tavily'],
  answerOrder: ['tavily', 'exa'],
}
const answered = (provider: string, query: string, answer: string): CallOutcome => ({
  provider,
  query,
  answer,
  results: [],
  ms: 1,
})

describe('assembleResults: the answer that leads', () => {
  it('is the preferred provider’s answer to the earliest query, whichever call landed first', () => {
    const outcomes = [
      answered('exa', 'rust async', 'exa on the query'),
      answered('tavily', 'rust async overview', 'tavily on the sub-query'),
      answered('tavily', 'rust async', 'tavily on the query'),
    ]
    const lead = assembleResults(outcomes, context, scoring)
    expect(lead).toMatchObject({ answer: 'tavily on the query', answer_source: 'tavily' })
    expect(assembleResults(outcomes.slice(0, 2), context, scoring).answer).toBe('tavily on the sub-query')
    expect(assembleResults(outcomes.slice(0, 1), context, scoring).answer_source).toBe('exa')
  })
})
