import { MAX_QUERY_CHARS } from '@search-layer/core'
import { FETCH_ERROR_KINDS, type FetchErrorKind } from '@search-layer/page-fetch'
import { PassageSchema } from '@search-layer/passages'
import { z } from 'zod'

/** Kinds of a page read: `ok`, or `degraded` (read as plain text; `message` says why). */
export const READ_OK_KINDS = ['ok', 'degraded'] as const
/**
 * Kinds of a page not read: `deadline` (the search's deadline came before its turn), `not_http` (not an http(s)
 * URL), `duplicate` (the same URL as a higher result), `cancelled` (the caller gave up first).
 */
export const READ_SKIP_KINDS = ['deadline', 'not_http', 'duplicate', 'cancelled'] as const
/** Kinds of a page that failed: page-fetch's own (`FETCH_ERROR_KINDS`), and `failed` for anything else. */
export const READ_FAIL_KINDS: readonly (FetchErrorKind | 'failed')[] = [...FETCH_ERROR_KINDS, 'failed']

type AnyReadKind = (typeof READ_OK_KINDS)[number] | (typeof READ_SKIP_KINDS)[number] | (typeof READ_FAIL_KINDS)[number]
const READ_KINDS = [...READ_OK_KINDS, ...READ_SKIP_KINDS, ...READ_FAIL_KINDS] as [AnyReadKind, ...AnyReadKind[]]

/** What became of one page a search set out to read. */
export const ReadReportSchema = z.object({
  url: z.string(),
  /** 1 for the top result. */
  resultRank: z.number().int().positive(),
  status: z.enum(['ok', 'failed', 'skipped']),
  kind: z
    .enum(READ_KINDS)
    .describe(
      'ok | degraded when read; a page-fetch error kind (timeout, blocked, too_large, unsupported_type, http, network, empty, …) or `failed` when it failed; deadline | not_http | duplicate | cancelled when skipped.',
    ),
  message: z.string().optional().describe('Why it failed or was skipped, or why a read page is plain text.'),
  ms: z.number().int().nonnegative().describe('Time spent on this page (0 when skipped).'),
  chars: z.number().int().nonnegative().describe("Characters of the page's markdown (0 unless read)."),
  cached: z.literal(true).optional().describe('Read from the page cache.'),
})
export type ReadReport = z.infer<typeof ReadReportSchema>
export type ReadKind = ReadReport['kind']

/** What reading adds to a search: every page accounted for, and the best passages of those read. */
export const EvidenceSchema = z.object({
  reads: z.array(ReadReportSchema),
  passages: z.array(PassageSchema),
})
export type Evidence = z.infer<typeof EvidenceSchema>

/** A search result to read: its URL, its title, and its score when the search scored it. */
const EvidenceResultSchema = z.object({
  url: z.string(),
  title: z.string(),
  score: z.number().finite().nonnegative().optional(),
})

/** What `readEvidence` is asked: the query, its sub-queries and the ranked results. */
export const EvidenceInputSchema = z.object({
  query: z.string().trim().min(1).max(MAX_QUERY_CHARS),
  subQueries: z.array(z.string().max(MAX_QUERY_CHARS)).max(20).default([]),
  results: z.array(EvidenceResultSchema).max(100),
})
export type EvidenceInput = z.input<typeof EvidenceInputSchema>
