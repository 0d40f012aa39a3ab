// The evidence package as an entry of its own in dist/ (evidence.js). A search's CommonJS script (search-run.cjs,
// compiled through V8's code cache on every search) imports it from there when the search reads its top results,
// instead of carrying the passage ranker, MiniSearch and the tokenizer's rank table in the script (see tsup.config.ts).
export { evidenceToMarkdown, readEvidence, warmReading } from '@search-layer/evidence'
