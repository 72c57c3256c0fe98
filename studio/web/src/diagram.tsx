// The tables as a diagram: a box per table with its columns, an arrow per
// ref, laid out by dagre in a worker (layout.ts), with pan (drag), zoom
// (wheel, buttons, keys) and fit. Only the boxes and arrows inside the view
// are drawn. Past FULL tables the diagram shows the selected table and the
// tables around it (what it refers to, what refers to it), laid out in a
// blink; "All tables" lays out the whole project with compact boxes (name
// and counts), which takes dagre seconds at 1,000 tables, in the worker.

import { capture } from './pointer';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { LayoutAnswer, LayoutEdge, LayoutNode } from './layout';
import type { Table } from './types';

/** Past FULL tables the diagram shows a table and its neighbours. */
export const FULL = 150;
/** At most AROUND tables are drawn around the one in focus, INTO of them referring to it. */
const AROUND = 32;
const INTO = 16;

const HEAD = 30;
const ROW = 20;
/** The band at the diagram's bottom that its zoom bar (14 pixels up, 36 tall) covers; a fit keeps boxes out of it. */
const barsBand = 40;

interface Box { t: Table; w: number; h: number }
interface View { x: number; y: number; k: number }

function colLabel(c: Table['columns'][number]): string {
  if (c.type === 'ref') return '→ ' + (c.ref ?? '?');
  return c.type + (c.optional ? '?' : '');
}

function boxesOf(tables: Table[]): Box[] {
  const big = tables.length > FULL;
  return tables.map((t) => {
    let chars = t.name.length + 8;
    if (!big) for (const c of t.columns) chars = Math.max(chars, c.name.length + colLabel(c).length + 3);
    const w = Math.min(300, Math.max(160, Math.round(chars * 7.2 + 24)));
    const h = big ? HEAD + ROW + 4 : HEAD + ROW * Math.max(1, t.columns.length) + 8;
    return { t, w, h };
  });
}

/**
 * anchored starts an arrow at its column's row, on the side of the box it
 * leaves by, instead of the box's middle.
 */
function anchored(pts: { x: number; y: number }[], e: LayoutEdge, byName: Map<string, Box>, lay: LayoutAnswer) {
  const b = byName.get(e.from);
  const p = lay.nodes[e.from];
  if (!b || !p) return pts;
  const i = b.t.columns.findIndex((c) => e.id === b.t.name + '.' + c.name);
  if (i < 0) return pts;
  const y = p.y - b.h / 2 + HEAD + 4 + i * ROW + 10;
  const right = pts[1].x >= p.x;
  const x = right ? p.x + b.w / 2 : p.x - b.w / 2;
  return [{ x, y }, { x: x + (right ? 16 : -16), y }, ...pts.slice(1)];
}

function edgesOf(tables: Table[]): LayoutEdge[] {
  const names = new Set(tables.map((t) => t.name));
  const out: LayoutEdge[] = [];
  for (const t of tables)
    for (const c of t.columns)
      if (c.ref && names.has(c.ref) && c.ref !== t.name) out.push({ id: t.name + '.' + c.name, from: t.name, to: c.ref });
  return out;
}

interface Around { focus: string; shown: Table[]; more: number }

/**
 * around picks the table in focus (the selected one, else the one that
 * refers to the most tables) and the tables next to it: all it refers to,
 * up to INTO of those that refer to it, then, while there is room, the
 * tables its neighbours refer to.
 */
function around(tables: Table[], byName: Map<string, Table>, selected: string | null): Around {
  const into = new Map<string, string[]>();
  for (const t of tables)
    for (const c of t.columns)
      if (c.ref && c.ref !== t.name) {
        const l = into.get(c.ref) ?? [];
        l.push(t.name);
        into.set(c.ref, l);
      }
  const outOf = (name: string) => {
    const t = byName.get(name);
    return t ? [...new Set(t.columns.filter((c) => c.ref && c.ref !== name && byName.has(c.ref)).map((c) => c.ref!))] : [];
  };
  let focus = selected && byName.has(selected) ? selected : '';
  if (!focus) {
    let best = -1;
    for (const t of tables) {
      const n = outOf(t.name).length * 1000 + (into.get(t.name)?.length ?? 0);
      if (n > best) { best = n; focus = t.name; }
    }
  }
  const pick = new Set<string>([focus]);
  for (const n of outOf(focus)) pick.add(n);
  const referrers = [...new Set(into.get(focus) ?? [])];
  let more = 0;
  for (const n of referrers) {
    if (pick.has(n)) continue;
    if (pick.size < AROUND && referrers.indexOf(n) < INTO) pick.add(n);
    else more++;
  }
  for (const n of [...pick]) {
    for (const m of outOf(n)) if (pick.size < AROUND / 2 + 4) pick.add(m);
  }
  return { focus, shown: tables.filter((t) => pick.has(t.name)), more };
}

let worker: Worker | null = null;
let seq = 0;

/** startLayout starts the layout worker, so it is ready when the model comes. */
export function startLayout(): Worker {
  if (!worker) worker = new Worker('layout.js');
  return worker;
}

/** requestLayout runs one layout in the worker. */
function requestLayout(nodes: LayoutNode[], edges: LayoutEdge[]): Promise<LayoutAnswer> {
  const w = startLayout();
  const mine = ++seq;
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
export function Diagram({ tables: all, selected, onSelect, errorsOf }: DiagramProps) {
  const allByName = useMemo(() => new Map(all.map((t) => [t.name, t])), [all]);
  const big = all.length > FULL;
  const [overview, setOverview] = useState(false);
  const near = useMemo(() => (big && !overview ? around(all, allByName, selected) : null), [all, allByName, selected, big, overview]);
  const tables = near ? near.shown : all;
  const boxes = useMemo(() => boxesOf(tables), [tables]);
  const byName = useMemo(() => new Map(boxes.map((b) => [b.t.name, b])), [boxes]);
  const edges = useMemo(() => edgesOf(tables), [tables]);
  // The layout changes where the boxes or the arrows do, not with every model.
  const shape = useMemo(
    () => boxes.map((b) => `${b.t.name}:${b.w}x${b.h}`).join(',') + '|' + edges.map((e) => e.id + '>' + e.to).join(','),
    [boxes, edges],
  );
  // A new set of tables (another focus, the overview) is fitted anew.
  const view0 = near ? 'around:' + near.focus : overview ? 'all' : 'whole';
  const [lay, setLay] = useState<LayoutAnswer>(() => gridLayout(boxes));
  const [laying, setLaying] = useState(true);
  const [laidShape, setLaidShape] = useState('');
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const [size, setSize] = useState({ w: 800, h: 600 });
  const svgRef = useRef<SVGSVGElement>(null);
  const fitted = useRef('');
  // hit is the box the press began on: once the pointer is captured, the
  // release's target is the svg itself
  const drag = useRef<{ px: number; py: number; x: number; y: number; moved: boolean; hit: string | null } | null>(null);

  useEffect(() => {
    let live = true;
    setLaying(true);
    if (fitted.current !== view0) setLay(gridLayout(boxes));
    requestLayout(boxes.map((b) => ({ id: b.t.name, width: b.w, height: b.h })), edges)
      .then((ans) => {
        if (!live) return;
        setLay(ans);
        setLaidShape(shape);
        setLaying(false);
      })
      .catch(() => live && setLaying(false));
    return () => {
      live = false;
    };
  }, [shape]);

  useEffect(() => {
    performance.mark('tent:diagram');
    const el = svgRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth || 800, h: el.clientHeight || 600 }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // moved: the person panned or zoomed since the view was last fitted, so
  // a change of the diagram's size (an inspector opened beside it, a
  // wider panel, a turned phone) keeps their view instead of fitting anew.
  const moved = useRef(false);
  const fit = (l: LayoutAnswer = lay) => {
    moved.current = false;
    // The zoom bar and the layout's numbers stand over the diagram's
    // bottom edge: a fit keeps the boxes above them.
    const h = Math.max(size.h - barsBand, size.h / 2);
    const k = Math.min(1.2, Math.max(0.05, Math.min(size.w / (l.width + 40), h / (l.height + 40))));
    const p = near ? l.nodes[near.focus] : undefined;
    if (p && k < 0.5) {
      // around a table, the table stays readable: the rest is a pan away
      setView({ k: 0.5, x: size.w / 2 - p.x * 0.5, y: size.h / 2 - p.y * 0.5 });
      return;
    }
    setView({ k, x: (size.w - l.width * k) / 2, y: (h - l.height * k) / 2 });
  };

  // place shows a set of tables as it first opens: fitted, or around a
  // table for the whole of a large project.
  const place = () => {
    const p = overview ? lay.nodes[selected ?? ''] ?? lay.nodes[around(all, allByName, null).focus] : undefined;
    if (p) {
      // the whole of a large project opens readable around a table, not as a cloud of dots
      moved.current = false;
      setView({ k: 0.6, x: size.w / 2 - p.x * 0.6, y: size.h / 2 - p.y * 0.6 });
    } else fit(lay);
  };
  useEffect(() => {
    if (!laying && laidShape === shape && fitted.current !== view0 && size.w > 0) {
      fitted.current = view0;
      place();
    }
  }, [laying, laidShape, size, view0]);
  // the diagram's box changed size: placed again, unless the person moved the view
  useEffect(() => {
    if (!laying && fitted.current === view0 && !moved.current) place();
  }, [size.w, size.h]);

  // bring the selected table into view where it is outside
  useEffect(() => {
    if (!selected) return;
    const p = lay.nodes[selected];
    const b = byName.get(selected);
    if (!p || !b) return;
    if (fitted.current !== view0) return; // the fit to come places it
    setView((v) => {
      const sx = p.x * v.k + v.x, sy = p.y * v.k + v.y;
      if (sx >= 0 && sy >= 0 && sx <= size.w && sy <= size.h) return v;
      return { ...v, x: size.w / 2 - p.x * v.k, y: size.h / 2 - p.y * v.k };
    });
  }, [selected, lay]);

  const zoom = (f: number, cx = size.w / 2, cy = size.h / 2) => {
    moved.current = true;
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

  // Two fingers on a touch screen pinch: the zoom follows their distance,
  // around their middle. One pointer pans, or selects where it did not move.
  const touches = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ dist: number; k: number } | null>(null);
  const spread = () => {
    const [a, b] = [...touches.current.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  };
  const onDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    touches.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    capture(e);
    if (touches.current.size === 2) {
      drag.current = null;
      pinch.current = { dist: spread().dist || 1, k: view.k };
      return;
    }
    const hit = (e.target as Element).closest?.('[data-table]')?.getAttribute('data-table') ?? null;
    drag.current = { px: e.clientX, py: e.clientY, x: view.x, y: view.y, moved: false, hit };
  };
  const onMove = (e: PointerEvent) => {
    if (touches.current.has(e.pointerId)) touches.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const p = pinch.current;
    if (p && touches.current.size === 2) {
      moved.current = true;
      const { dist, mx, my } = spread();
      const r = svgRef.current!.getBoundingClientRect();
      const cx = mx - r.left, cy = my - r.top;
      setView((v) => {
        const k = Math.min(3, Math.max(0.05, (p.k * dist) / p.dist));
        return { k, x: cx - ((cx - v.x) * k) / v.k, y: cy - ((cy - v.y) * k) / v.k };
      });
      return;
    }
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.px, dy = e.clientY - d.py;
    if (!d.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    d.moved = true;
    moved.current = true;
    setView((v) => ({ ...v, x: d.x + dx, y: d.y + dy }));
  };
  const onUp = (e: PointerEvent) => {
    touches.current.delete(e.pointerId);
    if (pinch.current) {
      if (touches.current.size < 2) pinch.current = null;
      drag.current = null;
      return;
    }
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved && d.hit) onSelect(d.hit);
  };
  const onCancel = (e: PointerEvent) => {
    touches.current.delete(e.pointerId);
    pinch.current = null;
    drag.current = null;
  };

  const onKey = (e: KeyboardEvent) => {
    const step = 60;
    const box = (e.target as Element).closest?.('[data-table]');
    if (box && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onSelect(box.getAttribute('data-table')!);
      return;
    }
    if (e.key === '+' || e.key === '=') zoom(1.25);
    else if (e.key === '-') zoom(0.8);
    else if (e.key === '0') fit();
    else if (e.key === 'ArrowLeft') setView({ ...view, x: view.x + step });
    else if (e.key === 'ArrowRight') setView({ ...view, x: view.x - step });
    else if (e.key === 'ArrowUp') setView({ ...view, y: view.y + step });
    else if (e.key === 'ArrowDown') setView({ ...view, y: view.y - step });
    else return;
    if (e.key.startsWith('Arrow')) moved.current = true;
    e.preventDefault();
  };

  // what the view shows, in the layout's coordinates, with a margin
  const vx0 = -view.x / view.k - 50, vy0 = -view.y / view.k - 50;
  const vx1 = vx0 + size.w / view.k + 100, vy1 = vy0 + size.h / view.k + 100;
  const compact = big && !near;
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
      <TableBox key={b.t.name} b={b} x={x} y={y} detail={detail} big={compact} errors={errorsOf(b.t)}
        selected={selected === b.t.name} related={related.has(b.t.name)} />,
    );
  }
  const shownEdges = [];
  for (const e of edges) {
    const raw = lay.edges[e.id];
    if (!raw || raw.length < 2) continue;
    const pts = compact ? raw : anchored(raw, e, byName, lay);
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
  // a ref of a table to itself (a parent category) loops on the box's right
  if (!compact)
    for (const b of boxes) {
      const p = lay.nodes[b.t.name];
      if (!p) continue;
      b.t.columns.forEach((c, i) => {
        if (c.ref !== b.t.name) return;
        const r = p.x + b.w / 2, top = p.y - b.h / 2;
        const y = top + HEAD + 4 + i * ROW + 10, h = top + HEAD / 2;
        if (r < vx0 || r > vx1 || top > vy1 || y < vy0) return;
        const hot = selected === b.t.name;
        shownEdges.push(
          <path key={b.t.name + '.' + c.name} class={hot ? 'edge hot' : 'edge'} d={`M${r},${y} C${r + 40},${y} ${r + 40},${h} ${r + 1},${h}`}
            marker-end={hot ? 'url(#arrow-hot)' : 'url(#arrow)'}>
            <title>{`${b.t.name}.${c.name} → ${b.t.name}`}</title>
          </path>,
        );
      });
    }

  return (
    <div class="diagram" data-testid="diagram" data-laid-out={laying ? 'no' : 'yes'} data-tables={tables.length}>
      <svg ref={svgRef} tabIndex={0} aria-label="Tables diagram: drag to pan, wheel or + and - to zoom, 0 to fit"
        onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={onCancel} onKeyDown={onKey}>
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
      {big && (
        <div class="scope" data-testid="diagram-scope">
          {near ? (
            <span>Around <strong>{near.focus}</strong>: {tables.length} of {all.length} tables{near.more > 0 ? `; ${near.more} more refer to it` : ''}</span>
          ) : (
            <span>All {all.length} tables</span>
          )}
          <button class="small" data-testid="diagram-overview" onClick={() => setOverview(!overview)}>
            {near ? 'All tables' : selected ? `Around ${selected}` : 'Around the most used'}
          </button>
        </div>
      )}
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
    <g class={cls} transform={`translate(${x},${y})`} data-table={t.name} data-testid={`table-node-${t.name}`}
      tabIndex={0} role="button" aria-label={`Table ${t.name}, ${t.columns.length} columns, ${t.rows} rows`}>
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
