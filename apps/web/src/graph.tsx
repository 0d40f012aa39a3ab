import dagre from '@dagrejs/dagre'
import { useMemo } from 'preact/hooks'

/** One thread or link in a reference graph. */
export interface GraphNode {
  id: string
  url?: string
  label: string
  title?: string
  depth: number
  /** The reference type it was reached by (`fixes`, `duplicate`…), or `root`. */
  via: string
  state?: string
  /** It can be opened in the reader (a GitHub issue or PR, or a page). */
  openable: boolean
}
export interface GraphEdge {
  from: string
  to: string
  type: string
}

const NODE_W = 190
const NODE_H = 46

const clipText = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text)

/**
 * The reference graph laid out left to right by dagre (rank = depth), drawn as SVG. Nodes are links: Tab moves
 * between them, Enter opens one in the reader.
 */
export function ReferenceGraph({
  nodes,
  edges,
  onOpen,
}: {
  nodes: GraphNode[]
  edges: GraphEdge[]
  onOpen: (node: GraphNode) => void
}) {
  const layout = useMemo(() => {
    const g = new dagre.graphlib.Graph({ multigraph: false })
    g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 70, marginx: 10, marginy: 10 })
    g.setDefaultEdgeLabel(() => ({}))
    for (const n of nodes) g.setNode(n.id, { width: NODE_W, height: NODE_H })
    for (const e of edges)
      if (g.hasNode(e.from) && g.hasNode(e.to)) g.setEdge(e.from, e.to, { label: e.type, width: 60, height: 14 })
    dagre.layout(g)
    const graph = g.graph()
    return {
      width: Math.ceil(graph.width ?? 0),
      height: Math.ceil(graph.height ?? 0),
      nodes: nodes.map((n) => ({ node: n, ...(g.node(n.id) as { x: number; y: number }) })),
      edges: g.edges().map((e) => {
        const label = g.edge(e) as { points: { x: number; y: number }[]; label?: string; x?: number; y?: number }
        return { id: `${e.v}->${e.w}`, ...label }
      }),
    }
  }, [nodes, edges])

  return (
    <div class="graph-scroll">
      {/* biome-ignore lint/a11y/useSemanticElements: an <svg> cannot be a <fieldset>; the group role names the graph and keeps its focusable nodes reachable */}
      <svg
        class="graph"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={`Reference graph: ${nodes.length} threads and links`}
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" class="arrow" />
          </marker>
        </defs>
        {layout.edges.map((e) => (
          <g key={e.id} class="edge">
            <path
              d={e.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')}
              marker-end="url(#arrow)"
            />
            {e.label && e.x !== undefined && (
              <text x={e.x} y={e.y! + 4} text-anchor="middle" class="edge-label">
                {e.label}
              </text>
            )}
          </g>
        ))}
        {layout.nodes.map(({ node, x, y }) => {
          const open = () => onOpen(node)
          return (
            <g
              key={node.id}
              class={`node via-${node.via.replace(/[^a-z_]/g, '')}${node.depth === 0 ? ' root' : ''}${node.openable ? ' openable' : ''}`}
              transform={`translate(${x - NODE_W / 2},${y - NODE_H / 2})`}
              {...(node.openable && {
                role: 'link',
                tabindex: 0,
                onClick: open,
                onKeyDown: (e: KeyboardEvent) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault()
                    open()
                  }
                },
              })}
              aria-label={`${node.label}${node.title ? `: ${node.title}` : ''} (${node.via}${node.state ? `, ${node.state}` : ''}, depth ${node.depth})`}
              data-url={node.url}
            >
              <title>{node.title ? `${node.label}: ${node.title}` : node.label}</title>
              <rect width={NODE_W} height={NODE_H} rx="8" />
              <text x="10" y="18" class="node-label">
                {clipText(node.label, 26)}
                {node.state ? ` · ${node.state}` : ''}
              </text>
              <text x="10" y="35" class="node-title">
                {clipText(node.title ?? node.via, 30)}
              </text>
            </g>
          )
        })}
      </svg>
    </div>
  )
}
