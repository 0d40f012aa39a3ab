export { readEvidence, warmReading } from './read-evidence.js'
export type { ReadEvidenceOptions, PageFetchOptions } from './read-evidence.js'
export type { FetchPageLike, FetchedPage } from './_read-pages.js'
export { pageCacheKey } from './_page-cache.js'
export type { PageCache } from './_page-cache.js'
export { evidenceToMarkdown } from './markdown.js'
export {
  ReadReportSchema,
  EvidenceSchema,
  EvidenceInputSchema,
  READ_OK_KINDS,
  READ_SKIP_KINDS,
  READ_FAIL_KINDS,
} from './schema.js'
export type { ReadReport, ReadKind, Evidence, EvidenceInput } from './schema.js'
export { ReadOptionsSchema, ReadRequestSchema, ReadPagesSchema, READ_LIMITS } from './options.js'
export type { ReadOptions, ReadRequest } from './options.js'
export { PassageSchema, warmTokenizer } from '@search-layer/passages'
export type { Passage } from '@search-layer/passages'
