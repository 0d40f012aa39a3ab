import type { AskResult } from '@search-layer/ask'

// The answer of one question: each sentence marked supported, unverified or uncited; each citation with its quote,
// marked verified or not, and linked to the page it came from; the sources cited below.

type Sentence = AskResult['sentences'][number]
type Passage = AskResult['passages'][number]

// A citation marker in the sentence text: `[p3]`, `[p3: "words"]` (straight or typographic quotes). The citations
// are shown beside the sentence, so the markers come out of the text.
const MARKER = /\s*\[p\d+(?:\s*:\s*(?:"[^"\]]*"|“[^”\]]*”))?\]/g

const STATUS_LABEL: Record<Sentence['status'], string> = {
  supported: 'supported',
  unverified: 'unverified',
  uncited: 'uncited',
}

/** Only http(s) links: a page's address comes from the web and could be anything. */
const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined)

function CitationChip({ citation, passage }: { citation: Sentence['citations'][number]; passage?: Passage }) {
  const mark = citation.verified ? 'verified' : 'unverified'
  const href = passage && safeHref(passage.url)
  const label = `${citation.passage}${citation.verified ? ' ✓' : ' ✗'}`
  return (
    <span class={`cite ${mark}`} data-verified={String(citation.verified)}>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer" title={passage?.title}>
          {label}
        </a>
      ) : (
        <span title="No such passage was read">{label}</span>
      )}
      {citation.quote && <q>{citation.quote}</q>}
      <span class="visually-hidden"> ({mark})</span>
    </span>
  )
}

function SentenceLine({ sentence, passages }: { sentence: Sentence; passages: Map<string, Passage> }) {
  const text = sentence.text.replace(MARKER, '').trim()
  return (
    <li class={`sentence ${sentence.status}`} data-status={sentence.status}>
      <span class="sentence-mark" title={STATUS_LABEL[sentence.status]}>
        {STATUS_LABEL[sentence.status]}
      </span>
      <span class="sentence-text">{text}</span>
      {sentence.citations.map((c, i) => (
        <CitationChip key={`${c.passage}-${i}`} citation={c} passage={passages.get(c.passage)} />
      ))}
    </li>
  )
}

/** The checked answer of one question, with its sources. */
export function AskAnswer({ result }: { result: AskResult }) {
  const passages = new Map(result.passages.map((p) => [p.id, p]))
  const cited = new Set(result.sentences.flatMap((s) => s.citations.map((c) => c.passage)))
  const sources = result.passages.filter((p) => cited.has(p.id))
  const c = result.counts
  return (
    <section class="ask-answer" aria-label="Answer">
      <p class="ask-meta">
        <span class={`badge mode-${result.mode}`}>
          {result.mode === 'model' ? 'model answer' : 'extractive answer'}
        </span>
        {result.abstained && <span class="badge abstained">abstained</span>}
        <span class="muted">
          confidence {result.confidence.level} · {c.supported} supported · {c.unverified} unverified · {c.uncited}{' '}
          uncited
        </span>
      </p>
      {result.modelNote && <p class="notice">{result.modelNote}</p>}
      {result.sentences.length > 0 ? (
        <ul class="sentences">
          {result.sentences.map((s, i) => (
            <SentenceLine key={i} sentence={s} passages={passages} />
          ))}
        </ul>
      ) : (
        <p>{result.answer}</p>
      )}
      {sources.length > 0 && (
        <>
          <h3>Sources</h3>
          <ol class="ask-sources">
            {sources.map((p) => {
              const href = safeHref(p.url)
              return (
                <li key={p.id}>
                  <span class="muted">[{p.id}]</span>{' '}
                  {href ? (
                    <a href={href} target="_blank" rel="noopener noreferrer">
                      {p.title || p.url}
                    </a>
                  ) : (
                    p.title || p.url
                  )}
                  {p.heading && <span class="muted"> › {p.heading}</span>}
                </li>
              )
            })}
          </ol>
        </>
      )}
    </section>
  )
}
