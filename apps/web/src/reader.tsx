import { useEffect, useState } from 'preact/hooks'
import { api } from './api.js'
import { type GraphEdge, type GraphNode, ReferenceGraph } from './graph.js'
import { renderMarkdown } from './markdown.js'
import { go, isThreadUrl } from './route.js'
import type { Ref, Thread } from '@search-layer/thread-fetch'
import { REF_TYPES } from '@search-layer/thread-fetch/ref-types'

/** How far the graph follows references from the thread on screen. */
const MAX_DEPTH = 3
/** References drawn per thread, most specific types first (`REF_TYPES`' order). */
const MAX_CHILDREN = 8
/** Threads whose references are fetched per level. */
const MAX_EXPAND = 6

const labelOf = (ref: Ref) => (ref.repo && ref.number !== undefined ? `${ref.repo}#${ref.number}` : ref.text)
const shortUrl = (url: string) => {
  const m = /github\.com\/([^/]+\/[^/]+)\/(?:issues|pull|discussions)\/(\d+)/.exec(url)
  if (m) return `${m[1]}#${m[2]}`
  try {
    const u = new URL(url)
    return u.hostname + (u.pathname.length > 1 ? u.pathname : '')
  } catch {
    return url
  }
}

/** Follows typed references breadth-first from the thread, up to `MAX_DEPTH`, fetching each level's refs in one call. */
async function buildGraph(thread: Thread, signal: AbortSignal): Promise<{ nodes: GraphNode[]; edges: GraphEdge[] }> {
  const nodes = new Map<string, GraphNode>()
  const edges: GraphEdge[] = []
  const idOf = (url: string) => url.replace(/[#?].*$/, '').replace(/\/$/, '')
  const root: GraphNode = {
    id: idOf(thread.url),
    url: thread.url,
    label: shortUrl(thread.url),
    title: thread.title,
    depth: 0,
    via: 'root',
    openable: true,
    ...(thread.state && { state: thread.state }),
  }
  nodes.set(root.id, root)
  const attach = (parent: GraphNode, refs: Ref[]): GraphNode[] => {
    const added: GraphNode[] = []
    const ordered = refs
      .filter((r) => r.url)
      .sort((a, b) => REF_TYPES.indexOf(a.type) - REF_TYPES.indexOf(b.type))
      .slice(0, MAX_CHILDREN)
    for (const ref of ordered) {
      const id = idOf(ref.url!)
      if (id === parent.id) continue
      let node = nodes.get(id)
      if (!node) {
        node = {
          id,
          url: ref.url!,
          label: labelOf(ref),
          depth: parent.depth + 1,
          via: ref.type,
          openable: /^https?:/.test(ref.url!),
          ...(ref.title && { title: ref.title }),
          ...(ref.state && { state: ref.state }),
        }
        nodes.set(id, node)
        added.push(node)
      }
      if (!edges.some((e) => e.from === parent.id && e.to === id))
        edges.push({ from: parent.id, to: id, type: ref.type })
    }
    return added
  }
  let frontier = attach(root, thread.refs)
  for (let depth = 1; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const expand = frontier.filter((n) => n.url && isThreadUrl(n.url)).slice(0, MAX_EXPAND)
    if (expand.length === 0) break
    const { results } = await api<{ results: { url: string; title?: string; refs: Ref[]; error?: unknown }[] }>(
      '/v1/refs',
      { json: { urls: expand.map((n) => n.url) }, signal },
    )
    const next: GraphNode[] = []
    results.forEach((r, i) => {
      const node = expand[i]!
      if (r.title && !node.title) node.title = r.title
      if (!r.error) next.push(...attach(node, r.refs))
    })
    frontier = next
  }
  return { nodes: [...nodes.values()], edges }
}

function Markdown({ source }: { source: string }) {
  // renderMarkdown escapes raw HTML and drops unsafe links: see markdown.ts.
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }} />
}

/** A thread or page as readable markdown, its typed references, and the reference graph around it. */
export function ReaderView({ url }: { url: string }) {
  const [thread, setThread] = useState<Thread | null>(null)
  const [graph, setGraph] = useState<{ nodes: GraphNode[]; edges: GraphEdge[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [graphError, setGraphError] = useState<string | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    setThread(null)
    setGraph(null)
    setError(null)
    setGraphError(null)
    api<Thread>('/v1/thread', { json: { url, maxComments: 100 }, signal: controller.signal })
      .then((t) => {
        setThread(t)
        document.title = `${t.title} · search-layer`
        return buildGraph(t, controller.signal)
          .then(setGraph)
          .catch((e: Error) => !controller.signal.aborted && setGraphError(e.message))
      })
      .catch((e: Error) => !controller.signal.aborted && setError(e.message))
    return () => {
      controller.abort()
      document.title = 'search-layer'
    }
  }, [url])

  if (error)
    return (
      <section class="reader">
        <p class="warnings error" role="alert">
          Could not read {url}: {error}
        </p>
      </section>
    )
  if (!thread)
    return (
      <p class="muted" role="status">
        Reading {shortUrl(url)}…
      </p>
    )

  const author = thread.metadata.author as string | undefined

  return (
    <article class="reader" aria-labelledby="thread-title">
      <header>
        <p class="muted">
          <a href={thread.url} target="_blank" rel="noopener noreferrer">
            {shortUrl(thread.url)}
          </a>{' '}
          · {thread.type}
          {thread.state && <span class={`state state-${thread.state}`}>{thread.state}</span>}
          {author && ` · by ${author}`}
        </p>
        <h1 id="thread-title">{thread.title}</h1>
        {thread.labels.length > 0 && (
          <p class="labels">
            {thread.labels.map((l) => (
              <span class="tag" key={l}>
                {l}
              </span>
            ))}
          </p>
        )}
        {thread.error && (
          <p class="warnings warn" role="status">
            {thread.error.message}
          </p>
        )}
      </header>

      <section class="graph-section" aria-labelledby="graph-title">
        <h2 id="graph-title">Reference graph</h2>
        <p class="muted">
          Duplicates, fixes and cross-references, up to {MAX_DEPTH} steps away. Select a node to open it.
        </p>
        {graphError && <p class="muted">Could not follow references: {graphError}</p>}
        {!graph && !graphError && (
          <p class="muted" role="status">
            Following references…
          </p>
        )}
        {graph && graph.nodes.length > 1 && (
          <ReferenceGraph
            nodes={graph.nodes}
            edges={graph.edges}
            onOpen={(n) => n.url && go({ view: 'read', url: n.url })}
          />
        )}
        {graph && graph.nodes.length <= 1 && <p class="muted">No references to follow.</p>}
      </section>

      <div class="reader-body">
        <section aria-label="Thread">
          <Markdown source={thread.body || '_No description._'} />
          <Comments comments={thread.comments} />
        </section>
        <References refs={thread.refs} />
      </div>
    </article>
  )
}

/** A thread's comments, indented by reply depth. */
function Comments({ comments }: { comments: Thread['comments'] }) {
  if (comments.length === 0) return null
  return (
    <>
      <h2>{comments.length} comments</h2>
      <ol class="comments">
        {comments.map((c) => (
          <li
            key={c.id}
            class={`comment kind-${c.kind}`}
            style={c.depth ? { marginLeft: `${Math.min(c.depth, 6)}rem` } : undefined}
          >
            <p class="muted">
              <strong>{c.author ?? 'unknown'}</strong>
              {c.kind !== 'comment' && ` · ${c.kind.replace('_', ' ')}`}
              {c.createdAt && (
                <>
                  {' · '}
                  <time dateTime={c.createdAt}>{c.createdAt.slice(0, 10)}</time>
                </>
              )}
            </p>
            <Markdown source={c.body} />
          </li>
        ))}
      </ol>
    </>
  )
}

/** A thread's references, grouped by type. */
function References({ refs }: { refs: Ref[] }) {
  const byType = new Map<string, Ref[]>()
  for (const ref of refs) byType.set(ref.type, [...(byType.get(ref.type) ?? []), ref])
  return (
    <aside class="refs" aria-labelledby="refs-title">
      <h2 id="refs-title">References ({refs.length})</h2>
      {[...byType.entries()].map(([type, ofType]) => (
        <section key={type}>
          <h3>{type.replace(/_/g, ' ')}</h3>
          <ul>
            {ofType.map((r) => (
              <li key={r.key}>
                {r.url ? (
                  isThreadUrl(r.url) ? (
                    <a href={`#/read?url=${encodeURIComponent(r.url)}`}>{labelOf(r)}</a>
                  ) : (
                    <a href={r.url} target="_blank" rel="noopener noreferrer">
                      {labelOf(r)}
                    </a>
                  )
                ) : (
                  labelOf(r)
                )}
                {r.title && <span class="muted"> {r.title}</span>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </aside>
  )
}
