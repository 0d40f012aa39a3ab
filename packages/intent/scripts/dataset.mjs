// The labelled phrasing set (data/queries.jsonl) and its fixed holdout split, shared by the trainer, the tests and
// the bench. The split is a seeded hash of the query text, so a row's split never depends on its place in the file
// or on who edits it; the trainer refuses rows whose stored split disagrees.
import { readFileSync } from 'node:fs'

const HOLDOUT_SEED = 'intent-holdout-v1'
/** Share of rows (in percent) the hash puts in the holdout. */
export const HOLDOUT_PERCENT = 25

/** FNV-1a over UTF-16 units: small, stable, no dependency. */
function fnv1a(text) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** The split of a query: the same text always lands in the same split, whatever its case or spacing. */
export function splitOf(query) {
  const key = query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
  return fnv1a(`${HOLDOUT_SEED}:${key}`) % 100 < HOLDOUT_PERCENT ? 'holdout' : 'train'
}

/** Rows of a JSONL file next to this package (`data/…` or `test/fixtures/…`). */
export function readJsonl(relative) {
  return readFileSync(new URL(`../${relative}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

/** The labelled phrasing set; throws when a row's stored split is not the one its text hashes to. */
export function readDataset() {
  const rows = readJsonl('data/queries.jsonl')
  for (const row of rows)
    if (row.split !== splitOf(row.query)) throw new Error(`data/queries.jsonl: "${row.query}" is in the wrong split`)
  return rows
}
