// The real pages of page-fetch's test corpora (Readability, article-extraction) and the passages question set over
// them: what the passages and read scenarios measure on.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

const FIXTURES = new URL('../../packages/page-fetch/test/fixtures/', import.meta.url)
const QUESTIONS = new URL('../../packages/passages/test/fixtures/questions.jsonl', import.meta.url)

/** One question of the set: the page it is answered on (`corpus/name`), the query, a string of the answer. */
export interface Question {
  page: string
  query: string
  answer: string
}

/** The article-extraction corpus' ground truth: each page's URL by file name. */
export type CorpusTruth = Record<string, { url: string }>

/** The question set, in file order. */
export function loadQuestions(): Question[] {
  return readFileSync(QUESTIONS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Question)
}

/** The article-extraction ground truth (for the pages' URLs). */
export function loadTruth(): CorpusTruth {
  return JSON.parse(readFileSync(new URL('article-extraction/ground-truth.json', FIXTURES), 'utf8')) as CorpusTruth
}

/** The stored HTML of a corpus page (`readability/<name>` or `article-extraction/<name>`) and its URL. */
export function corpusHtml(id: string, truth: CorpusTruth): { html: string; url: string } {
  const [corpus, name] = id.split('/') as [string, string]
  if (corpus === 'readability') {
    const html = gunzipSync(readFileSync(new URL(`readability/test-pages/${name}/source.html.gz`, FIXTURES)))
    return { html: html.toString('utf8'), url: `https://${name}.example/` }
  }
  const full = Object.keys(truth).find((key) => key.startsWith(name))
  if (!full) throw new Error(`no article-extraction page ${name}`)
  const html = gunzipSync(readFileSync(new URL(`article-extraction/html/${full}.html.gz`, FIXTURES)))
  return { html: html.toString('utf8'), url: truth[full]!.url }
}
