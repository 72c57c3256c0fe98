// The tables as a diagram: a box per table with its columns, an arrow per
// ref, laid out by dagre in a worker (layout.ts), with pan (drag), zoom
// (wheel, buttons) and fit. Only the boxes and arrows inside the view are
// drawn, and past BIG tables a box shows its name and count alone, so a
// 1,000-table project stays responsive.

import { capture } from './pointer';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { LayoutAnswer, LayoutEdge, LayoutNode } from './layout';
import type { Table } from './types';

/** Past BIG tables the boxes are compact (name and counts, no columns). */
export const BIG = 120;

const HEAD = 30;
const ROW = 20;

interface Box { t: Table; w: number; h: number }
interface View { x: number; y: number; k: number }

function colLabel(c: Table['columns'][number]): string {
  if (c.type === 'ref') return '→ ' + (c.ref ?? '?');
  return c.type + (c.optional ? '?' : '');
}

function boxesOf(tables: Table[]): Box[] {
  const big = tables.length > BIG;
  return tables.map((t) => {
    let chars = t.name.length + 8;
    if (!big) for (const c of t.columns) chars = Math.max(chars, c.name.length + colLabel(c).length + 3);
    const w = Math.min(300, Math.max(160, Math.round(chars * 7.2 + 24)));
    const h = big ? HEAD + ROW + 4 : HEAD + ROW * Math.max(1, t.columns.length) + 8;
    return { t, w, h };
  });
}

function edgesOf(tables: Table[]): LayoutEdge[] {
  const names = new Set(tables.map((t) => t.name));
  const out: LayoutEdge[] = [];
  for (const t of tables)
    for (const c of t.columns)
      if (c.ref && names.has(c.ref) && c.ref !== t.name) out.push({ id: t.name + '.' + c.name, from: t.name, to: c.ref });
  return out;
}

let worker: Worker | null = null;
let seq = 0;

/** requestLayout runs one layout in the worker. */
function requestLayout(nodes: LayoutNode[], edges: LayoutEdge[]): Promise<LayoutAnswer> {
  if (!worker) worker = new Worker('layout.js');
  const mine = ++seq;
  const w = worker;
  return new Promise((resolve, reject) => {
    const onMsg = (ev: MessageEvent<LayoutAnswer>) => {
      if (ev.data.seq !== mine) return;
      w.removeEventListener('message', onMsg);
      resolve(ev.data);
    };
    w.addEventListener('message', onMsg);
    w.onerror = (e) => reject(new Error(e.message));
    w.postMessage({ seq: mine, nodes, edges });
  });
}

/** gridLayout places boxes in rows at once, while the real layout runs. */
function gridLayout(boxes: Box[]): LayoutAnswer {
  const per = Math.max(1, Math.ceil(Math.sqrt(boxes.length * 1.6)));
  const nodes: LayoutAnswer['nodes'] = {};
  let x = 24, y = 24, rowH = 0, width = 0;
  boxes.forEach((b, i) => {
    if (i > 0 && i % per === 0) { x = 24; y += rowH + 24; rowH = 0; }
    nodes[b.t.name] = { x: x + b.w / 2, y: y + b.h / 2 };
    x += b.w + 24;
    rowH = Math.max(rowH, b.h);
    width = Math.max(width, x);
  });
  return { seq: 0, nodes, edges: {}, width, height: y + rowH + 24, ms: 0 };
}

function pathOf(pts: { x: number; y: number }[]): string {
  if (pts.length === 0) return '';
  let d = `M${pts[0].x},${pts[0].y}`;
  if (pts.length === 2) return d + `L${pts[1].x},${pts[1].y}`;
  for (let i = 1; i < pts.length - 1; i++) {
    const mx = (pts[i].x + pts[i + 1].x) / 2, my = (pts[i].y + pts[i + 1].y) / 2;
    d += i === pts.length - 2 ? `Q${pts[i].x},${pts[i].y} ${pts[i + 1].x},${pts[i + 1].y}` : `Q${pts[i].x},${pts[i].y} ${mx},${my}`;
  }
  return d;
}

export interface DiagramProps {
  tables: Table[];
  selected: string | null;
  onSelect: (name: string) => void;
  errorsOf: (t: Table) => number;
}

/** Diagram draws the tables and their refs. */
export function Diagram({ tables, selected, onSelect, errorsOf }: DiagramProps) {
  const boxes = useMemo(() => boxesOf(tables), [tables]);
  const byName = useMemo(() => new Map(boxes.map((b) => [b.t.name, b])), [boxes]);
  const edges = useMemo(() => edgesOf(tables), [tables]);
  // The layout changes where the boxes or the arrows do, not with every model.
  const shape = useMemo(
    () => boxes.map((b) => `${b.t.name}:${b.w}x${b.h}`).join(',') + '|' + edges.map((e) => e.id + '>' + e.to).join(','),
    [boxes, edges],
  );
  const [lay, setLay] = useState<LayoutAnswer>(() => gridLayout(boxes));
  const [laying, setLaying] = useState(true);
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const [size, setSize] = useState({ w: 800, h: 600 });
  const svgRef = useRef<SVGSVGElement>(null);
  const fitted = useRef(false);
  const drag = useRef<{ px: number; py: number; x: number; y: number; moved: boolean } | null>(null);

  useEffect(() => {
    let live = true;
    setLaying(true);
    if (!fitted.current) setLay(gridLayout(boxes));
    requestLayout(boxes.map((b) => ({ id: b.t.name, width: b.w, height: b.h })), edges)
      .then((ans) => {
        if (!live) return;
        setLay(ans);
        setLaying(false);
      })
      .catch(() => live && setLaying(false));
    return () => {
      live = false;
    };
  }, [shape]);

  useEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth || 800, h: el.clientHeight || 600 }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const fit = (l: LayoutAnswer = lay) => {
    const k = Math.min(1.2, Math.max(0.05, Math.min(size.w / (l.width + 40), size.h / (l.height + 40))));
    setView({ k, x: (size.w - l.width * k) / 2, y: (size.h - l.height * k) / 2 });
  };

  useEffect(() => {
    if (!laying && !fitted.current && size.w > 0) {
      fitted.current = true;
      const big = tables.length > BIG;
      // a large project opens readable at its start, not as a cloud of dots
      if (big) setView({ k: 0.8, x: 0, y: 0 });
      else fit(lay);
    }
  }, [laying, size]);

  // bring the selected table into view where it is outside
  useEffect(() => {
    if (!selected) return;
    const p = lay.nodes[selected];
    const b = byName.get(selected);
    if (!p || !b) return;
    const sx = p.x * view.k + view.x, sy = p.y * view.k + view.y;
    if (sx < 0 || sy < 0 || sx > size.w || sy > size.h) setView({ ...view, x: size.w / 2 - p.x * view.k, y: size.h / 2 - p.y * view.k });
  }, [selected, lay]);

  const zoom = (f: number, cx = size.w / 2, cy = size.h / 2) => {
    setView((v) => {
      const k = Math.min(3, Math.max(0.05, v.k * f));
      return { k, x: cx - ((cx - v.x) * k) / v.k, y: cy - ((cy - v.y) * k) / v.k };
    });
  };

  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const r = svgRef.current!.getBoundingClientRect();
    zoom(Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), e.clientX - r.left, e.clientY - r.top);
  };
  useEffect(() => {
    const el = svgRef.current;
    el?.addEventListener('wheel', onWheel, { passive: false });
    return () => el?.removeEventListener('wheel', onWheel);
  });

  const onDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    drag.current = { px: e.clientX, py: e.clientY, x: view.x, y: view.y, moved: false };
    capture(e);
  };
  const onMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.px, dy = e.clientY - d.py;
    if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    d.moved = true;
    setView((v) => ({ ...v, x: d.x + dx, y: d.y + dy }));
  };
  const onUp = (e: PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved) {
      const hit = (e.target as Element).closest('[data-table]');
      if (hit) onSelect(hit.getAttribute('data-table')!);
    }
  };

  const onKey = (e: KeyboardEvent) => {
    const step = 60;
    if (e.key === '+' || e.key === '=') zoom(1.25);
    else if (e.key === '-') zoom(0.8);
    else if (e.key === '0') fit();
    else if (e.key === 'ArrowLeft') setView({ ...view, x: view.x + step });
    else if (e.key === 'ArrowRight') setView({ ...view, x: view.x - step });
    else if (e.key === 'ArrowUp') setView({ ...view, y: view.y + step });
    else if (e.key === 'ArrowDown') setView({ ...view, y: view.y - step });
    else return;
    e.preventDefault();
  };

  // what the view shows, in the layout's coordinates, with a margin
  const vx0 = -view.x / view.k - 50, vy0 = -view.y / view.k - 50;
  const vx1 = vx0 + size.w / view.k + 100, vy1 = vy0 + size.h / view.k + 100;
  const big = tables.length > BIG;
  const detail = view.k >= 0.35;
  const related = new Set<string>();
  if (selected) for (const e of edges) if (e.from === selected || e.to === selected) { related.add(e.from); related.add(e.to); }

  const shownNodes = [];
  for (const b of boxes) {
    const p = lay.nodes[b.t.name];
    if (!p) continue;
    const x = p.x - b.w / 2, y = p.y - b.h / 2;
    if (x > vx1 || y > vy1 || x + b.w < vx0 || y + b.h < vy0) continue;
    shownNodes.push(
      <TableBox key={b.t.name} b={b} x={x} y={y} detail={detail} big={big} errors={errorsOf(b.t)}
        selected={selected === b.t.name} related={related.has(b.t.name)} />,
    );
  }
  const shownEdges = [];
  for (const e of edges) {
    const pts = lay.edges[e.id];
    if (!pts || pts.length < 2) continue;
    let minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
    for (const p of pts) { minx = Math.min(minx, p.x); maxx = Math.max(maxx, p.x); miny = Math.min(miny, p.y); maxy = Math.max(maxy, p.y); }
    if (minx > vx1 || miny > vy1 || maxx < vx0 || maxy < vy0) continue;
    const hot = selected !== null && (e.from === selected || e.to === selected);
    shownEdges.push(
      <path key={e.id} class={hot ? 'edge hot' : 'edge'} d={pathOf(pts)} marker-end={hot ? 'url(#arrow-hot)' : 'url(#arrow)'}>
        <title>{e.id + ' → ' + e.to}</title>
      </path>,
    );
  }

  return (
    <div class="diagram" data-testid="diagram" data-laid-out={laying ? 'no' : 'yes'} data-tables={tables.length}>
      <svg ref={svgRef} tabIndex={0} aria-label="Tables diagram: drag to pan, wheel or + and - to zoom, 0 to fit"
        onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} onKeyDown={onKey}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="arrowhead" />
          </marker>
          <marker id="arrow-hot" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="arrowhead hot" />
          </marker>
        </defs>
        <g transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
          <g class="edges">{shownEdges}</g>
          <g class="nodes">{shownNodes}</g>
        </g>
      </svg>
      <div class="zoombar" role="toolbar" aria-label="Zoom">
        <button data-testid="zoom-in" title="Zoom in (+)" onClick={() => zoom(1.25)}>+</button>
        <button data-testid="zoom-out" title="Zoom out (−)" onClick={() => zoom(0.8)}>−</button>
        <button data-testid="zoom-fit" title="Fit (0)" onClick={() => fit()}>Fit</button>
        <span class="zoomlevel" data-testid="zoom-level">{Math.round(view.k * 100)}%</span>
      </div>
      {laying && <div class="laying" data-testid="laying-out">Laying out {tables.length} tables…</div>}
      {!laying && lay.ms > 0 && <div class="layinfo" title="Layout by dagre">{tables.length} tables · {edges.length} refs · layout {lay.ms} ms</div>}
    </div>
  );
}

interface TableBoxProps { b: Box; x: number; y: number; detail: boolean; big: boolean; errors: number; selected: boolean; related: boolean }

function TableBox({ b, x, y, detail, big, errors, selected, related }: TableBoxProps) {
  const t = b.t;
  const cls = 'tbox' + (selected ? ' selected' : '') + (related ? ' related' : '') + (errors ? ' haserr' : '');
  return (
    <g class={cls} transform={`translate(${x},${y})`} data-table={t.name} data-testid={`table-node-${t.name}`}>
      <rect class="body" width={b.w} height={b.h} rx="7" />
      <path class="head" d={`M0,7 a7,7 0 0 1 7,-7 h${b.w - 14} a7,7 0 0 1 7,7 v${HEAD - 7} h-${b.w} z`} />
      {detail && (
        <>
          <text class="tname" x="12" y="20">{t.name}</text>
          <text class="tmeta" x={b.w - 10} y="20" text-anchor="end">{errors ? `⚠ ${errors}` : `${t.rows} rows`}</text>
          {big ? (
            <text class="cname" x="12" y={HEAD + 15}>{t.columns.length} columns</text>
          ) : (
            t.columns.map((c, i) => (
              <g key={c.name} transform={`translate(0,${HEAD + 4 + i * ROW})`}>
                <text class="cname" x="12" y="14">{c.name}</text>
                <text class={c.type === 'ref' ? 'ctype ref' : 'ctype'} x={b.w - 10} y="14" text-anchor="end">{colLabel(c)}</text>
              </g>
            ))
          )}
        </>
      )}
    </g>
  );
}
