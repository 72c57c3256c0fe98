// The page's frame: the top bar (project, sections, the session's state),
// the refusal and the person's question, and the three panes of a section
// (its list, its main view, its inspector), which stack on a narrow screen.

import { useEffect, useMemo, useState } from 'preact/hooks';
import { Diagram } from './diagram';
import { Inspector } from './inspector';
import { FindingsView, FlowsView, FunctionsView, HistoryView, ScreensView, Source } from './views';
import type { State, Studio } from './store';
import { useStudio } from './store';
import type { Table } from './types';

/** A side list draws at most LISTED items; its search finds the others. */
export const LISTED = 150;

export type Tab = 'tables' | 'flows' | 'functions' | 'screens' | 'findings' | 'history';
const TABS: { id: Tab; label: string }[] = [
  { id: 'tables', label: 'Tables' },
  { id: 'flows', label: 'Flows' },
  { id: 'functions', label: 'Functions' },
  { id: 'screens', label: 'Screens' },
  { id: 'findings', label: 'Findings' },
  { id: 'history', label: 'History' },
];

/** route is the section and the name the address's hash names (#/tables/orders). */
function route(): { tab: Tab; name: string } {
  const [, tab, ...rest] = location.hash.replace(/^#/, '').split('/');
  const t = TABS.find((x) => x.id === tab)?.id ?? 'tables';
  return { tab: t, name: decodeURIComponent(rest.join('/')) };
}

export function go(tab: Tab, name = '') {
  const h = `#/${tab}` + (name ? '/' + encodeURIComponent(name) : '');
  if (location.hash !== h) location.hash = h;
}

export function App({ studio }: { studio: Studio }) {
  const st = useStudio(studio);
  const [r, setR] = useState(route);
  useEffect(() => {
    const on = () => setR(route());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const m = st.model;
  return (
    <div class="shell" data-testid="studio" data-state={st.conn} data-version={m?.version ?? -1}>
      <TopBar st={st} tab={r.tab} studio={studio} />
      <Refusal st={st} studio={studio} />
      {st.ask && <AskDialog st={st} />}
      {!m ? (
        <div class="empty-state">{st.conn === 'closed' ? `Not connected: ${st.connError}. Trying again…` : 'Loading the model…'}</div>
      ) : r.tab === 'tables' ? (
        <TablesView studio={studio} st={st} name={r.name} />
      ) : r.tab === 'flows' ? (
        <FlowsView studio={studio} st={st} name={r.name} />
      ) : r.tab === 'functions' ? (
        <FunctionsView studio={studio} st={st} name={r.name} />
      ) : r.tab === 'screens' ? (
        <ScreensView studio={studio} st={st} name={r.name} />
      ) : r.tab === 'findings' ? (
        <FindingsView studio={studio} st={st} />
      ) : (
        <HistoryView studio={studio} st={st} />
      )}
    </div>
  );
}

function TopBar({ st, tab, studio }: { st: State; tab: Tab; studio: Studio }) {
  const m = st.model;
  const findings = studio.findings().length;
  return (
    <header class="top">
      <div class="brand">
        <span class="logo" aria-hidden="true">◭</span>
        <span class="product">tent studio</span>
        {m?.project && <span class="project" data-testid="project-name">{m.project.name}</span>}
      </div>
      <nav class="tabs" aria-label="Sections">
        {TABS.map((t) => (
          <a key={t.id} href={`#/${t.id}`} class={t.id === tab ? 'tab active' : 'tab'} data-testid={`tab-${t.id}`}
            aria-current={t.id === tab ? 'page' : undefined}>
            {t.label}
            {t.id === 'findings' && findings > 0 && <span class="count">{findings}</span>}
          </a>
        ))}
      </nav>
      <div class={`conn conn-${st.conn}`} data-testid="status" title={st.connError || undefined}>
        <span class="dot" aria-hidden="true" />
        {st.conn === 'ready' ? (st.busy ? 'Saving…' : 'Live') : st.conn === 'connecting' ? 'Connecting…' : 'Offline'}
        {m && <span class="ver" data-testid="model-version">v{m.version}</span>}
      </div>
    </header>
  );
}

function Refusal({ st, studio }: { st: State; studio: Studio }) {
  const r = st.refusal;
  if (!r) return <div class="refusal-slot" data-testid="refusal" hidden />;
  return (
    <div class="refusal" role="alert" data-testid="refusal" data-code={r.code}>
      <div class="refusal-body">
        <strong>Not done: {r.what}.</strong>{' '}
        <span data-testid="refusal-message">{r.message}</span>
        {r.op !== undefined && (r.ops ?? 1) > 1 && <span class="refusal-op"> (operation {r.op + 1} of {r.ops})</span>}
      </div>
      <button class="icon" data-testid="refusal-dismiss" aria-label="Dismiss" onClick={() => studio.set({ refusal: null })}>×</button>
    </div>
  );
}

function AskDialog({ st }: { st: State }) {
  const a = st.ask!;
  const actions = a.actions.length ? a.actions : ['Yes', 'No'];
  return (
    <div class="modal-back">
      <div class="modal" role="alertdialog" aria-modal="true" aria-labelledby="ask-msg" data-testid="ask-dialog"
        onKeyDown={(e) => { if (e.key === 'Escape') a.answer(actions.find((t) => /^no$/i.test(t)) ?? null); }}>
        <h2>Allow this change?</h2>
        <p id="ask-msg" data-testid="ask-message">{a.message}</p>
        <div class="modal-actions">
          {actions.map((t) => (
            <button key={t} class={/^(yes|allow|ok)$/i.test(t) ? 'primary' : ''} data-testid={`ask-${t.toLowerCase()}`}
              autoFocus={/^(yes|allow|ok)$/i.test(t)} onClick={() => a.answer(t)}>{t}</button>
          ))}
        </div>
      </div>
    </div>
  );
}

/** errorsByPath counts the findings of each file. */
function useErrorsByPath(studio: Studio, st: State): Map<string, number> {
  return useMemo(() => {
    const m = new Map<string, number>();
    for (const f of studio.findings()) m.set(f.path, (m.get(f.path) ?? 0) + 1);
    return m;
  }, [st.diagnostics]);
}

function TablesView({ studio, st, name }: { studio: Studio; st: State; name: string }) {
  const m = st.model!;
  const [filter, setFilter] = useState('');
  const [adding, setAdding] = useState(false);
  const errs = useErrorsByPath(studio, st);
  const table = m.tables.find((t) => t.name === name) ?? null;
  const found = useMemo(() => {
    const f = filter.toLowerCase();
    return f ? m.tables.filter((t) => t.name.toLowerCase().includes(f) || t.columns.some((c) => c.name.toLowerCase().includes(f))) : m.tables;
  }, [m.tables, filter]);
  // the list draws the first LISTED; a search finds the rest
  const shown = found.slice(0, LISTED);
  const count = found.length;
  return (
    <main class="work">
      <aside class="side" aria-label="Tables">
        <div class="side-head">
          <h2>Tables <span class="muted">{m.tables.length}</span></h2>
          <button class="small" data-testid="new-table" aria-expanded={adding} onClick={() => setAdding(!adding)}>{adding ? 'Close' : '+ New'}</button>
        </div>
        {adding && <NewTable studio={studio} done={() => setAdding(false)} />}
        <input class="search" type="search" placeholder="Find a table or column" value={filter} data-testid="table-search"
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
        <ul class="list">
          {shown.map((t) => (
            <li key={t.name}>
              <a href={`#/tables/${encodeURIComponent(t.name)}`} class={t.name === name ? 'item active' : 'item'} data-testid={`table-item-${t.name}`}>
                <span class="item-name">{t.name}</span>
                <span class="item-meta">{errs.get(t.path) ? <span class="bad">⚠ {errs.get(t.path)}</span> : `${t.columns.length} col`}</span>
              </a>
            </li>
          ))}
          {shown.length < count && <li class="more muted">{count - shown.length} more: type to find them</li>}
        </ul>
      </aside>
      <section class="center" aria-label="Diagram">
        <Diagram tables={m.tables} selected={table?.name ?? null} onSelect={(n) => go('tables', n)} errorsOf={(t: Table) => errs.get(t.path) ?? 0} />
      </section>
      {table ? (
        <Inspector key={table.name} studio={studio} model={m} table={table} />
      ) : st.source ? (
        <aside class="panel"><Source st={st} studio={studio} /></aside>
      ) : null}
    </main>
  );
}

/** NewTable adds a table with its first column (addTable). */
function NewTable({ studio, done }: { studio: Studio; done: () => void }) {
  const [name, setName] = useState('');
  const [col, setCol] = useState('name');
  const submit = async (e: Event) => {
    e.preventDefault();
    const n = name.trim(), c = col.trim();
    if (!n || !c) return;
    const ans = await studio.apply([{ op: 'addTable', name: n, columns: { [c]: { type: 'text' } } }], `add table ${n}`);
    if (ans) {
      done();
      go('tables', n);
    }
  };
  return (
    <form class="newtable" onSubmit={submit} aria-label="New table">
      <input placeholder="table name, e.g. coupons" aria-label="New table's name" value={name} data-testid="new-table-name" spellcheck={false}
        autoFocus onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <input placeholder="first column (text)" aria-label="Its first column, a text" value={col} data-testid="new-table-column" spellcheck={false}
        onInput={(e) => setCol((e.target as HTMLInputElement).value)} />
      <button class="primary" type="submit" data-testid="new-table-submit" disabled={!name.trim() || !col.trim()}>Add table</button>
    </form>
  );
}
