export { expandQuery, expandQueryWithLlm } from './expand.js'
export type {
  ExpandClassification,
  ExpandQueryOptions,
  ExpandQueryWithLlmOptions,
  ExpandResult,
  SubQuery,
  SubQueryKind,
} from './expand.js'
