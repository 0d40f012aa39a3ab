// The thread reader as an entry of the ES module build: the search script imports it from here (tsup.config.ts) for
// --extract-refs, so a search without it neither reads nor compiles the DOM parser and reader behind it.
export { extractRefsFromUrls, refsToMarkdown } from '@search-layer/thread-fetch'
