// The reference types alone, with no imports: the web app orders a thread's references by them, and a browser bundle
// must not pull in the package (its fetching and zod) for one list. `@search-layer/thread-fetch/ref-types`.

/** Every reference type, most specific first (the order decides which type wins when duplicates merge). */
export const REF_TYPES = [
  'duplicate',
  'fixes',
  'closes',
  'resolves',
  'cross_ref_pr',
  'cross_ref_issue',
  'related',
  'pr',
  'issue',
  'commit',
  'url',
] as const
