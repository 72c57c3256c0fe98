// The diagram's layout, made by dagre (@dagrejs/dagre, the kept fork of
// dagre). dagre rather than elkjs: its bundle is about 60 KB against the
// 1.4 MB of elkjs's compiled Java, and a layered layout of boxes and arrows
// is all the diagram needs. It runs in a Web Worker (layoutworker.ts) so a
// large project never blocks the page; this module is the shared part.

import dagre from '@dagrejs/dagre';

export interface LayoutNode { id: string; width: number; height: number }
export interface LayoutEdge { id: string; from: string; to: string }
export interface LayoutRequest { seq: number; nodes: LayoutNode[]; edges: LayoutEdge[] }
export interface Placed { x: number; y: number }
export interface LayoutAnswer {
  seq: number;
  nodes: Record<string, Placed>;
  edges: Record<string, { x: number; y: number }[]>;
  width: number;
  height: number;
  ms: number;
}

/**
 * layout places the nodes (their centres) and routes the edges. Past 150
 * nodes the ranks are found by longest path, which dagre does in linear time
 * (network simplex, its default, takes tens of seconds at 1,000 tables).
 */
export function layout(req: LayoutRequest): LayoutAnswer {
  const t0 = Date.now();
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({
    rankdir: 'LR',
    nodesep: 24,
    ranksep: 72,
    edgesep: 12,
    marginx: 24,
    marginy: 24,
    ranker: req.nodes.length > 150 ? 'longest-path' : 'network-simplex',
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of req.nodes) g.setNode(n.id, { width: n.width, height: n.height });
  for (const e of req.edges) if (e.from !== e.to) g.setEdge(e.from, e.to, {}, e.id);
  dagre.layout(g);
  const nodes: Record<string, Placed> = {};
  for (const id of g.nodes()) {
    const n = g.node(id);
    nodes[id] = { x: n.x, y: n.y };
  }
  const edges: Record<string, { x: number; y: number }[]> = {};
  for (const e of g.edges()) {
    const ed = g.edge(e);
    if (e.name) edges[e.name] = (ed.points ?? []).map((p: { x: number; y: number }) => ({ x: p.x, y: p.y }));
  }
  const gr = g.graph();
  return { seq: req.seq, nodes, edges, width: gr.width ?? 0, height: gr.height ?? 0, ms: Date.now() - t0 };
}
