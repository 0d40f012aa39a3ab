export { findPassages, FindPassagesOptionsSchema } from './find-passages.js'
export { warmTokenizer } from './warm.js'
export type { FindPassagesOptions } from './find-passages.js'
export { splitMarkdown, DEFAULT_SPLIT_OPTIONS } from './split.js'
export type { SplitPassage, SplitOptions } from './split.js'
export {
  PassageSchema,
  PassageSourceSchema,
  ReadPageSchema,
  PassageQuerySchema,
  PASSAGE_INPUT_LIMITS,
} from './schema.js'
export type { Passage, PassageSource, ReadPage, PassageQuery } from './schema.js'
