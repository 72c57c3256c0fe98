// The sections but the tables: flows with their steps (reordered by drag,
// by keyboard or by buttons), functions and screens each opening its place,
// a screen's picture, the findings live, and the history with undo.

import { LISTED } from './app';
import { highlight } from './highlight';
import { useReorder } from './reorder';
import { useEffect, useRef, useState } from 'preact/hooks';
import { HISTORY_SHOWN, type State, type Studio } from './store';
import type { Finding, Flow, Func, Model, Point, Screen } from './types';

/** Source shows the text around the place last opened, its line marked. */
export function Source({ st, studio }: { st: State; studio: Studio }) {
  const s = st.source;
  const v = st.model?.version;
  const ref = useRef<HTMLDivElement>(null);
  const opened = useRef('');
  // the text follows the file as it changes
  useEffect(() => {
    const key = s ? `${s.path}:${s.line}` : '';
    if (s && opened.current === key) studio.open(s.path, s.line, s.last);
    opened.current = key;
  }, [v]);
  useEffect(() => {
    // scrolled within the code alone, never the page around it
    const code = ref.current;
    const hl = code?.querySelector<HTMLElement>('.hl');
    // a definition from its first line, a single place in the middle
    if (code && hl) code.scrollTop = s && s.last > s.line ? hl.offsetTop - 3 * hl.offsetHeight : hl.offsetTop - code.clientHeight / 2;
  }, [s?.path, s?.line]);
  if (!s) return <div class="source empty muted" data-testid="source">Pick a definition or a finding to see its place.</div>;
  const lines = s.text.replace(/\n$/, '').split('\n');
  return (
    <div class="source" data-testid="source">
      <div class="source-head">
        <span class="mono" data-testid="source-place">{s.path}:{s.line}</span>
        <span class="muted">{s.lines} lines</span>
        <button class="icon" aria-label="Close the source" onClick={() => studio.set({ source: null })}>×</button>
      </div>
      <div class="code" ref={ref}>
        {lines.map((l, i) => {
          const n = s.from + i;
          return (
            <div key={n} class={n === s.line ? 'codeline hl' : n > s.line && n <= s.last ? 'codeline in' : 'codeline'}>
              <span class="ln">{n}</span>
              <span class="lt">{l ? highlight(l) : ' '}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface ListProps<T> { items: T[]; current: string; kind: string; meta: (t: T) => string; title: string }

function SideList<T extends { name: string }>({ items, current, kind, meta, title }: ListProps<T>) {
  const [filter, setFilter] = useState('');
  const f = filter.toLowerCase();
  const found = f ? items.filter((i) => i.name.toLowerCase().includes(f)) : items;
  const shown = found.slice(0, LISTED);
  return (
    <aside class="side" aria-label={title}>
      <div class="side-head"><h2>{title} <span class="muted">{items.length}</span></h2></div>
      <input class="search" type="search" placeholder={`Find a ${kind}`} value={filter} data-testid={`${kind}-search`}
        onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
      <ul class="list">
        {shown.map((i) => (
          <li key={i.name}>
            <a href={`#/${kind}s/${encodeURIComponent(i.name)}`} class={i.name === current ? 'item active' : 'item'} data-testid={`${kind}-item-${i.name}`}>
              <span class="item-name">{i.name}</span>
              <span class="item-meta">{meta(i)}</span>
            </a>
          </li>
        ))}
        {shown.length < found.length && <li class="more muted">{found.length - shown.length} more: type to find them</li>}
        {items.length === 0 && <li class="more muted">None in this project.</li>}
      </ul>
    </aside>
  );
}

function openDef(studio: Studio, d: { path: string; range: { start: { line: number }; end?: { line: number } } }) {
  studio.open(d.path, d.range.start.line + 1, (d.range.end?.line ?? d.range.start.line) + 1);
}

/** useOpen opens the place of the definition named, when it is picked. */
function useOpen(studio: Studio, d: { name: string; path: string; range: { start: { line: number } } } | undefined) {
  useEffect(() => {
    if (d) openDef(studio, d);
  }, [d?.name, d?.path]);
}

/**
 * DefHead is a definition's name, renamed in place (the rename operation:
 * every plain place that names it follows), and its place.
 */
function DefHead({ studio, d, kind, title }: { studio: Studio; d: { name: string; path: string; range: { start: { line: number } } }; kind: string; title?: string }) {
  const [name, setName] = useState(d.name);
  useEffect(() => setName(d.name), [d.name]);
  const rename = async () => {
    const to = name.trim();
    if (!to || to === d.name) return;
    const ans = await studio.apply([{ op: 'rename', name: d.name, to }], `rename ${kind} ${d.name} to ${to}`);
    if (ans) location.hash = `#/${kind}s/${encodeURIComponent(to)}`;
  };
  return (
    <header class="detail-head">
      <div class="namebar">
        <input class="title-input" aria-label={`Name of the ${kind}`} value={name} data-testid="def-name" spellcheck={false}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => { if (e.key === 'Enter') rename(); if (e.key === 'Escape') setName(d.name); }} />
        {name.trim() !== d.name && name.trim() && <button data-testid="def-rename" onClick={rename}>Rename</button>}
        {title && <span class="muted">{title}</span>}
      </div>
      <a href="#" class="place" onClick={(e) => { e.preventDefault(); openDef(studio, d); }}>{d.path}:{d.range.start.line + 1}</a>
    </header>
  );
}

// ---- flows

export function FlowsView({ studio, st, name }: { studio: Studio; st: State; name: string }) {
  const m = st.model!;
  const flow = m.flows.find((f) => f.name === name) ?? m.flows[0];
  useOpen(studio, flow);
  return (
    <main class="work">
      <SideList items={m.flows} current={flow?.name ?? ''} kind="flow" title="Flows" meta={(f) => `${f.steps.length} steps`} />
      <section class="center pad" aria-label="Flow">
        {flow ? <FlowEditor studio={studio} model={m} flow={flow} /> : <div class="empty-state">No flows in this project.</div>}
      </section>
      <aside class="panel"><Source st={st} studio={studio} /></aside>
    </main>
  );
}

function FlowEditor({ studio, model, flow }: { studio: Studio; model: Model; flow: Flow }) {
  const [pick, setPick] = useState('');
  const fns = new Set(model.functions.map((f) => f.name));
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= flow.steps.length) return;
    studio.apply([{ op: 'moveStep', flow: flow.name, from, to }], `move step ${flow.steps[from]} of ${flow.name}`);
  };
  const re = useReorder<HTMLOListElement>(move);
  const add = () => {
    if (!pick) return;
    studio.apply([{ op: 'addStep', flow: flow.name, step: pick }], `add step ${pick} to ${flow.name}`).then((a) => a && setPick(''));
  };
  return (
    <div class="flow" data-testid="flow" data-flow={flow.name}>
      <DefHead studio={studio} d={flow} kind="flow" />
      {flow.input.length > 0 && (
        <p class="chips"><span class="muted">input</span>{flow.input.map((i) => <span key={i.name} class="chip">{i.name}: {i.type === 'ref' ? '→ ' + i.ref : i.type}{i.optional ? '?' : ''}</span>)}</p>
      )}
      <h3 class="section-title">Steps <span class="muted">drag ⠿, or focus a step and press Alt+↑ / Alt+↓</span></h3>
      <ol class={re.dragging ? 'steps dragging' : 'steps'} {...re.list}>
        {flow.steps.map((s, i) => {
          return (
            <li key={i + ':' + s} class={'step' + re.itemClass(i)} data-testid={`step-${i}`} data-step={s} data-reorder-index={i} tabIndex={0}
              onKeyDown={(e) => {
                if (e.altKey && e.key === 'ArrowUp') { e.preventDefault(); move(i, i - 1); }
                if (e.altKey && e.key === 'ArrowDown') { e.preventDefault(); move(i, i + 1); }
              }}>
              <span class="handle" title="Drag to reorder" aria-hidden="true" data-testid={`step-handle-${i}`} onPointerDown={re.handle(i)}>⠿</span>
              <span class="stepno">{i + 1}</span>
              <a class={fns.has(s) ? 'stepname' : 'stepname bad'} href={`#/functions/${encodeURIComponent(s)}`} title={s}>{s}</a>
              <span class="grow" />
              <button class="icon" aria-label={`Move ${s} up`} data-testid={`step-up-${i}`} disabled={i === 0} onClick={() => move(i, i - 1)}>↑</button>
              <button class="icon" aria-label={`Move ${s} down`} data-testid={`step-down-${i}`} disabled={i === flow.steps.length - 1} onClick={() => move(i, i + 1)}>↓</button>
              <button class="icon danger" aria-label={`Remove step ${s}`} data-testid={`step-remove-${i}`}
                onClick={() => studio.apply([{ op: 'removeStep', flow: flow.name, at: i }], `remove step ${s} of ${flow.name}`)}>✕</button>
            </li>
          );
        })}
        {flow.steps.length === 0 && <li class="muted step-none">No steps yet.</li>}
      </ol>
      <div class="addstep">
        <select aria-label="Function to add as a step" value={pick} data-testid="step-add-select" onChange={(e) => setPick((e.target as HTMLSelectElement).value)}>
          <option value="">Add a step…</option>
          {model.functions.slice(0, 2000).map((f) => <option key={f.name} value={f.name}>{f.name}</option>)}
        </select>
        <button data-testid="step-add" disabled={!pick} onClick={add}>Add step</button>
      </div>
    </div>
  );
}

// ---- functions

export function FunctionsView({ studio, st, name }: { studio: Studio; st: State; name: string }) {
  const m = st.model!;
  const fn = m.functions.find((f) => f.name === name) ?? m.functions[0];
  useOpen(studio, fn);
  return (
    <main class="work two">
      <SideList items={m.functions} current={fn?.name ?? ''} kind="function" title="Functions"
        meta={(f) => (f.writes.length ? 'writes' : f.reads.length ? 'reads' : '')} />
      <section class="center pad" aria-label="Function">
        {fn ? <FuncDetail studio={studio} fn={fn} model={m} /> : <div class="empty-state">No functions in this project.</div>}
        <Source st={st} studio={studio} />
      </section>
    </main>
  );
}

function Chips({ label, names, to }: { label: string; names: string[]; to?: 'tables' | 'functions' }) {
  if (names.length === 0) return null;
  return (
    <p class="chips">
      <span class="muted">{label}</span>
      {names.map((n) => (to ? <a key={n} class="chip link" href={`#/${to}/${encodeURIComponent(n)}`}>{n}</a> : <span key={n} class="chip">{n}</span>))}
    </p>
  );
}

function FuncDetail({ studio, fn, model }: { studio: Studio; fn: Func; model: Model }) {
  const usedBy = model.flows.filter((f) => f.steps.includes(fn.name)).map((f) => f.name);
  return (
    <div class="detail" data-testid="function" data-function={fn.name}>
      <DefHead studio={studio} d={fn} kind="function" />
      {fn.input.length > 0 && (
        <p class="chips"><span class="muted">input</span>{fn.input.map((i) => <span key={i.name} class="chip">{i.name}: {i.type === 'ref' ? '→ ' + i.ref : i.type}{i.optional ? '?' : ''}</span>)}</p>
      )}
      <Chips label="reads" names={fn.reads} to="tables" />
      <Chips label="writes" names={fn.writes} to="tables" />
      <Chips label="calls" names={fn.calls} to="functions" />
      <Chips label="sends" names={fn.sends} />
      {usedBy.length > 0 && (
        <p class="chips"><span class="muted">a step of</span>{usedBy.map((n) => <a key={n} class="chip link" href={`#/flows/${encodeURIComponent(n)}`}>{n}</a>)}</p>
      )}
    </div>
  );
}

// ---- screens

export function ScreensView({ studio, st, name }: { studio: Studio; st: State; name: string }) {
  const m = st.model!;
  const sc = m.screens.find((s) => s.name === name) ?? m.screens[0];
  useOpen(studio, sc);
  return (
    <main class="work">
      <SideList items={m.screens} current={sc?.name ?? ''} kind="screen" title="Screens" meta={(s) => s.route} />
      <section class="center pad" aria-label="Screen">
        {sc ? <ScreenDetail key={sc.name} studio={studio} sc={sc} version={m.version} /> : <div class="empty-state">No screens in this project.</div>}
      </section>
      <aside class="panel"><Source st={st} studio={studio} /></aside>
    </main>
  );
}

function ScreenDetail({ studio, sc, version }: { studio: Studio; sc: Screen; version: number }) {
  const [route, setRoute] = useState(sc.route);
  const [size, setSize] = useState('desktop');
  const [as, setAs] = useState('');
  const touched = useRef(false);
  const [shot, setShot] = useState<{ png: string; path: string; size: string; version: number } | null>(null);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const take = async () => {
    setBusy(true);
    setErr('');
    try {
      const input: Record<string, string> = { path: route, size };
      if (as.trim()) input.as = as.trim();
      const ans = await studio.call<{ png: string; path: string; size: string }>('shot', input);
      setShot({ ...ans, version });
    } catch (e) {
      setErr(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  // a route's :params are filled from the test data where it can tell
  // which table a parameter names (its segment's table, else one the
  // screen loads, with a column of the parameter's name, or id)
  useEffect(() => {
    let live = true;
    // never over what the person is typing: a focus of the route ends it
    fillRoute(studio, sc).then((r) => live && r && !touched.current && setRoute((cur) => (cur === sc.route ? r : cur)));
    return () => {
      live = false;
    };
  }, [sc.name]);
  const params = /:[A-Za-z_]/.test(route);
  return (
    <div class="detail" data-testid="screen" data-screen={sc.name}>
      <DefHead studio={studio} d={sc} kind="screen" title={sc.title ? `“${sc.title}”` : undefined} />
      <Chips label="loads" names={sc.loads} to="tables" />
      <form class="shotbar" onSubmit={(e) => { e.preventDefault(); take(); }}>
        <label class="inline grow"><span class="muted">route</span>
          <input class="mono grow" value={route} aria-label="Route to picture" data-testid="shot-route" spellcheck={false}
            onFocus={() => (touched.current = true)} onInput={(e) => setRoute((e.target as HTMLInputElement).value)} />
        </label>
        <label class="inline"><span class="muted">as</span>
          <input class="as" value={as} placeholder="nobody" aria-label="Who looks: a user's id, email or name" data-testid="shot-as" spellcheck={false}
            title="Who looks: the id, email or name of a row of the project's users; empty is nobody"
            onInput={(e) => setAs((e.target as HTMLInputElement).value)} />
        </label>
        <select aria-label="Size" value={size} data-testid="shot-size" onChange={(e) => setSize((e.target as HTMLSelectElement).value)}>
          <option value="desktop">desktop</option>
          <option value="tablet">tablet</option>
          <option value="phone">phone</option>
        </select>
        <button class="primary" type="submit" data-testid="shot-button" disabled={busy}>{busy ? 'Taking…' : 'Take picture'}</button>
      </form>
      {params && !shot && <p class="hint muted">Fill in the route's <code>:params</code> (an id of the test data, for one), and who looks where its rows are not for everyone.</p>}
      {!params && route !== sc.route && !shot && <p class="hint muted">The route's parameters are taken from the first row of the test data; change them as you like.</p>}
      {err && <div class="fielderr" role="alert" data-testid="shot-error">{err}</div>}
      {shot && (
        <figure class="shot">
          <img src={`data:image/png;base64,${shot.png}`} alt={`${sc.name} at ${shot.path}`} data-testid="shot-image" />
          <figcaption class="muted">{shot.path} · {shot.size}{shot.version !== version ? ' · the app changed since: take it again' : ''}</figcaption>
        </figure>
      )}
    </div>
  );
}

// ---- findings

const SEV = ['', 'error', 'warning', 'info', 'hint'];

export function FindingsView({ studio, st }: { studio: Studio; st: State }) {
  const fs = studio.findings();
  const m = st.model!;
  return (
    <main class="work two">
      <section class="center pad" aria-label="Findings">
        <header class="detail-head">
          <h2>Findings <span class="muted">{fs.length}</span></h2>
          <span class="muted">live from the check · model: {m.findings.errors} errors, {m.findings.warnings} warnings</span>
        </header>
        {fs.length === 0 ? (
          <div class="empty-state ok" data-testid="findings" data-count="0">✓ No findings: the check finds nothing wrong.</div>
        ) : (
          <ul class="findings" data-testid="findings" data-count={fs.length}>
            {fs.map((f, i) => <FindingItem key={i} f={f} studio={studio} />)}
          </ul>
        )}
      </section>
      <aside class="panel wide"><Source st={st} studio={studio} /></aside>
    </main>
  );
}

function FindingItem({ f, studio }: { f: Finding; studio: Studio }) {
  const sev = SEV[f.severity ?? 1] || 'error';
  const line = f.range.start.line + 1;
  const fix = f.data?.fix;
  return (
    <li class="findingrow">
      <button class={`finding sev-${sev}`} data-testid="finding" data-code={String(f.code ?? '')} data-path={f.path} data-line={line}
        onClick={() => studio.open(f.path, line)}>
        <span class="sev">{sev}</span>
        <span class="fcode mono">{String(f.code ?? '')}</span>
        <span class="fmsg">{f.message}</span>
        <span class="fplace mono">{f.path}:{line}:{f.range.start.character + 1}</span>
      </button>
      {fix && (
        <button class="small fixbtn" data-testid="finding-fix" title={`Apply the certain fix: ${fix.title}`}
          onClick={() => applyFix(studio, String(f.code ?? ''), fix)}>{fix.title || 'Fix'}</button>
      )}
    </li>
  );
}

/**
 * applyFix applies a finding's certain fix through the fix tool, which
 * wants the text the fix replaces (the bytes start to end of the file as
 * it is now): read here, so a file changed since is refused (T9126).
 */
async function applyFix(studio: Studio, code: string, fix: { title: string; path: string; start: number; end: number }) {
  try {
    const ans = await studio.call<{ text: string }>('read', { path: fix.path });
    const bytes = new TextEncoder().encode(ans.text);
    const old = new TextDecoder().decode(bytes.slice(fix.start, fix.end));
    await studio.run('fix', { code, path: fix.path, start: fix.start, end: fix.end, old }, `fix ${code} in ${fix.path}`);
  } catch (e) {
    studio.refuse(e, `fix ${code} in ${fix.path}`);
  }
}

// ---- history

export function HistoryView({ studio, st }: { studio: Studio; st: State }) {
  const pts = st.history;
  // something to undo: a change still in effect among the points shown, or
  // older points the list does not show
  const undoable = pts.length >= HISTORY_SHOWN || pts.some((p) => p.kind !== 'undo' && !p.undoneBy);
  return (
    <main class="work two">
      <section class="center pad" aria-label="History">
        <header class="detail-head">
          <h2>History <span class="muted">{pts.length ? `newest ${pts.length} points` : ''}</span></h2>
          <button class="primary" data-testid="undo" disabled={!undoable || st.busy > 0}
            onClick={() => studio.run('undo', {}, 'undo the newest change')}>Undo last change</button>
        </header>
        {pts.length === 0 ? (
          <div class="empty-state" data-testid="history" data-count="0">No changes recorded yet.</div>
        ) : (
          <ol class="history" data-testid="history" data-count={pts.length}>
            {pts.map((p) => <PointItem key={p.point} p={p} studio={studio} busy={st.busy > 0} />)}
          </ol>
        )}
      </section>
      <aside class="panel"><Source st={st} studio={studio} /></aside>
    </main>
  );
}

function PointItem({ p, studio, busy }: { p: Point; studio: Studio; busy: boolean }) {
  const t = new Date(p.time);
  return (
    <li class={`point kind-${p.kind}${p.undoneBy ? ' undone' : ''}`} id={`point-${p.point}`} data-testid={`point-${p.point}`} data-kind={p.kind}>
      <span class="pno mono">#{p.point}</span>
      <div class="pbody">
        <div class="psum">{p.summary || p.tool || p.kind}</div>
        {(p.undid?.length || p.undoneBy) ? (
          <div class="plinks">
            {p.undid && p.undid.length > 0 && (
              <span data-testid={`undid-${p.point}`} data-points={[...p.undid].sort((a, b) => a - b).join(',')}>
                Undid {p.undid.length === 1 ? 'point' : 'points'} {pointRuns(p.undid).flatMap((r, i) => [i > 0 ? ', ' : '', <PointRef key={r[0]} run={r} />])}
              </span>
            )}
            {p.undid?.length && p.undoneBy ? ' · ' : ''}
            {p.undoneBy ? <span data-testid={`undone-by-${p.point}`} data-point={p.undoneBy}>Undone by <PointRef run={[p.undoneBy, p.undoneBy]} /></span> : null}
          </div>
        ) : null}
        <div class="pmeta muted">
          <span class="kind">{p.kind}</span>{p.who ? ` · ${p.who}` : ''}{p.agent ? ` (${p.agent})` : ''} · <time dateTime={p.time} title={p.time}>{when(t, p.time)}</time>
          {p.files.length > 0 && ' · '}
          {p.files.slice(0, 3).flatMap((f, i) => [
            i > 0 ? ', ' : '',
            <a key={f} href="#" class="mono" onClick={(e) => { e.preventDefault(); studio.open(f, 1); }}>{f}</a>,
          ])}
          {p.files.length > 3 ? ` +${p.files.length - 3}` : ''}
        </div>
      </div>
      <button class="small" data-testid={`undo-${p.point}`} disabled={busy} title={`Put the project back as it was before point ${p.point}`}
        onClick={() => studio.run('undo', { point: p.point }, `undo to before point ${p.point}`)}>{p.kind === 'undo' ? 'Redo' : 'Undo from here'}</button>
    </li>
  );
}

/** pointRuns sorts point numbers into runs [first, last]; a run of two is
 * two runs of one, as the history's text writes them. */
function pointRuns(points: number[]): [number, number][] {
  const ns = [...new Set(points)].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    if (j - i >= 2) out.push([ns[i], ns[j]]);
    else for (let k = i; k <= j; k++) out.push([ns[k], ns[k]]);
    i = j + 1;
  }
  return out;
}

/** PointRef names a point (or a run of them) and shows it in the list. */
function PointRef({ run }: { run: [number, number] }) {
  const show = (n: number) => (e: Event) => {
    e.preventDefault();
    const el = document.getElementById(`point-${n}`);
    if (!el) return;
    el.scrollIntoView({ block: 'nearest' });
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
  };
  const one = (n: number) => <a href={`#point-${n}`} class="mono" onClick={show(n)}>#{n}</a>;
  return run[0] === run[1] ? one(run[0]) : <>{one(run[0])} to {one(run[1])}</>;
}

/** when is a point's time: the time alone today, else the date too. */
function when(t: Date, raw: string): string {
  if (isNaN(+t)) return raw;
  const now = new Date();
  const time = t.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  if (t.toDateString() === now.toDateString()) return time;
  return t.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) + ' ' + time;
}

/** fillRoute fills a screen's route parameters from its tables' first rows. */
async function fillRoute(studio: Studio, sc: Screen): Promise<string | null> {
  const segs = sc.route.split('/');
  if (!segs.some((g) => g.startsWith(':'))) return null;
  const tables = studio.state.model?.tables ?? [];
  const first = new Map<string, Record<string, unknown> | null>();
  const rowOf = async (t: string) => {
    if (!first.has(t)) {
      try {
        const ans = await studio.call<{ text: string }>('read', { path: `testdata/${t}.json` });
        const rows = JSON.parse(ans.text);
        first.set(t, Array.isArray(rows) && rows.length ? rows[0] : null);
      } catch {
        first.set(t, null);
      }
    }
    return first.get(t) ?? null;
  };
  const out: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    const g = segs[i];
    if (!g.startsWith(':')) { out.push(g); continue; }
    const param = g.slice(1);
    const before = segs[i - 1] ?? '';
    const names = [before, ...sc.loads].filter((n, j, a) => n && a.indexOf(n) === j);
    let value: string | null = null;
    for (const n of names) {
      const t = tables.find((x) => x.name === n);
      if (!t || !(param === 'id' || t.columns.some((c) => c.name === param))) continue;
      const row = await rowOf(t.name);
      const v = row?.[param];
      if (typeof v === 'string' || typeof v === 'number') { value = String(v); break; }
    }
    if (value === null) return null;
    out.push(encodeURIComponent(value));
  }
  return out.join('/');
}
