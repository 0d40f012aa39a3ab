export { fetchThread, extractRefsFromUrls, threadRefsOnly } from './fetch-thread.js'
export type { FetchThreadOptions, ExtractRefsFromUrlsOptions, UrlRefs } from './fetch-thread.js'
export { extractRefs, findRefs, mergeRefs } from './refs.js'
export type { ExtractRefsOptions } from './refs.js'
export { timelineRefs } from './timeline.js'
export type { TimelineSummary } from './timeline.js'
export {
  REF_TYPES,
  RefTypeSchema,
  RefSchema,
  PageLinkSchema,
  ThreadCommentSchema,
  ThreadTypeSchema,
  ThreadErrorSchema,
  ThreadSchema,
} from './types.js'
export type { RefType, Ref, PageLink, ThreadComment, ThreadType, ThreadError, Thread } from './types.js'
export { followChain, scoreRef, createLlmChainGate } from './chain.js'
export type {
  Chain,
  ChainNode,
  ChainCandidate,
  ChainGate,
  ChainGateInput,
  FollowChainOptions,
  LlmChainGateOptions,
} from './chain.js'
export { threadToMarkdown, chainToMarkdown, refsToMarkdown } from './markdown.js'
