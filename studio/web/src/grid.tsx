// The test data of a table (testdata/T.json, read through tent/call read) as
// a grid: a cell edited is a setRow, a row added an addRow, a row deleted a
// removeRow (docs: change). The file is read again when the model's version
// grows, so a change made elsewhere shows here too. A table wider than its
// card scrolls sideways inside it, the row's id and its delete button held
// at the card's edges, and a shade at an edge says that columns are hidden
// beyond it.

import { useEffect, useRef, useState } from 'preact/hooks';
import type { Studio } from './store';
import type { Column, Table } from './types';
import { parseValue, showValue } from './values';

type Row = Record<string, unknown> & { id?: string };

/** The grid draws at most SHOWN rows (test data of thousands stays quick). */
const SHOWN = 500;

export function Grid({ studio, table, version }: { studio: Studio; table: Table; version: number }) {
  const path = `testdata/${table.name}.json`;
  const [rows, setRows] = useState<Row[] | null>(null);
  const [loadErr, setLoadErr] = useState('');
  const [editing, setEditing] = useState<{ id: string; col: string; text: string; err: string } | null>(null);
  const [adding, setAdding] = useState<Record<string, string> | null>(null);
  const [addErr, setAddErr] = useState('');
  // the ids of the tables the ref columns name, offered as the cells' choices
  const [ids, setIds] = useState<Record<string, string[]>>({});
  const refs = [...new Set(table.columns.filter((c) => c.type === 'ref' && c.ref).map((c) => c.ref!))].join(',');
  useEffect(() => {
    if (!editing && !adding) return;
    let live = true;
    for (const t of refs ? refs.split(',') : []) {
      if (ids[t]) continue;
      studio.call<{ text: string }>('read', { path: `testdata/${t}.json` })
        .then((ans) => {
          const v = JSON.parse(ans.text);
          const list = Array.isArray(v) ? v.map((r) => String(r?.id ?? '')).filter((x) => x) : [];
          if (live) setIds((cur) => ({ ...cur, [t]: list }));
        })
        .catch(() => live && setIds((cur) => ({ ...cur, [t]: [] })));
    }
    return () => {
      live = false;
    };
  }, [refs, !!editing || !!adding, version]);

  useEffect(() => {
    let live = true;
    if (table.rows === 0) {
      setRows([]);
      setLoadErr('');
      return;
    }
    studio
      .call<{ text: string }>('read', { path })
      .then((ans) => {
        if (!live) return;
        const v = JSON.parse(ans.text);
        setRows(Array.isArray(v) ? v : []);
        setLoadErr('');
      })
      .catch((e: Error) => live && setLoadErr(e.message));
    return () => {
      live = false;
    };
  }, [path, version, table.rows]);

  const scroller = useRef<HTMLDivElement>(null);
  const cut = useCut(scroller, rows);

  const cols = table.columns;
  const known = new Set(['id', ...cols.map((c) => c.name)]);
  const extra = rows ? [...new Set(rows.flatMap((r) => Object.keys(r)).filter((k) => !known.has(k)))] : [];

  const commit = async () => {
    if (!editing) return;
    const c = cols.find((x) => x.name === editing.col)!;
    const p = parseValue(c, editing.text);
    if (!p.ok) { setEditing({ ...editing, err: p.error }); return; }
    const row = rows?.find((r) => r.id === editing.id);
    if (row && JSON.stringify(row[editing.col] ?? null) === JSON.stringify(p.value)) { setEditing(null); return; }
    const ans = await studio.apply([{ op: 'setRow', table: table.name, id: editing.id, set: { [editing.col]: p.value } }], `set ${editing.col} of row ${editing.id}`);
    if (ans) setEditing(null);
  };

  const add = async (e: Event) => {
    e.preventDefault();
    if (!adding) return;
    const row: Row = {};
    if (adding.id?.trim()) row.id = adding.id.trim();
    for (const c of cols) {
      const t = adding[c.name] ?? '';
      if (t.trim() === '') continue;
      const p = parseValue(c, t);
      if (!p.ok) { setAddErr(p.error); return; }
      row[c.name] = p.value;
    }
    setAddErr('');
    const ans = await studio.apply([{ op: 'addRow', table: table.name, row }], `add a row to ${table.name}`);
    if (ans) setAdding(null);
  };

  if (loadErr) return <div class="grid-empty bad">Cannot read {path}: {loadErr}</div>;
  if (!rows) return <div class="grid-empty muted">Reading {path}…</div>;

  return (
    <div class="gridwrap">
      <div class="gridbar">
        <span class="muted">{path} · {rows.length} {rows.length === 1 ? 'row' : 'rows'}</span>
        <button class="small" data-testid="add-row" onClick={() => setAdding(adding ? null : {})}>{adding ? 'Close' : '+ Add row'}</button>
      </div>
      {adding && (
        <form class="newrow" onSubmit={add} aria-label="New row">
          <label class="field"><span>id</span>
            <input placeholder="next id" value={adding.id ?? ''} data-testid="new-row-id" onInput={(e) => { const v = (e.target as HTMLInputElement).value; setAdding((a) => ({ ...a, id: v })); }} />
          </label>
          {cols.map((c) => (
            <label class="field" key={c.name}><span>{c.name} <em class="muted">{c.type}{c.optional || c.default !== null ? '' : ' · required'}</em></span>
              <CellInput c={c} ids={c.ref ? ids[c.ref] : undefined} value={adding[c.name] ?? ''} testid={`new-row-${c.name}`} onInput={(v) => setAdding((a) => ({ ...a, [c.name]: v }))} />
            </label>
          ))}
          {addErr && <div class="fielderr" role="alert">{addErr}</div>}
          <div class="newrow-actions">
            <button type="button" data-testid="new-row-cancel" onClick={() => setAdding(null)}>Cancel</button>
            <button class="primary" type="submit" data-testid="new-row-submit">Add row</button>
          </div>
        </form>
      )}
      <div class={'gridscroll' + (cut.start ? ' cut-start' : '') + (cut.end ? ' cut-end' : '')} ref={scroller} data-testid="grid-scroll"
        data-cut={[cut.start && 'start', cut.end && 'end'].filter(Boolean).join(' ')}>
        <table class="grid" data-testid="grid" data-rows={rows.length}>
          <thead>
            <tr>
              <th class="idcell">id</th>
              {cols.map((c) => <th key={c.name} title={c.type}>{c.name}</th>)}
              {extra.map((k) => <th key={k} class="bad" title="no column of this name">{k}</th>)}
              <th class="rowact" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, SHOWN).map((r, i) => {
              const id = String(r.id ?? '');
              return (
                <tr key={id || i} data-testid={`row-${id}`}>
                  <td class="idcell" title={id}>{id}</td>
                  {cols.map((c) => {
                    const e = editing && editing.id === id && editing.col === c.name ? editing : null;
                    const v = r[c.name];
                    return (
                      <td key={c.name} class={cellClass(c, v)} data-testid={`cell-${id}-${c.name}`} tabIndex={e ? -1 : 0} title={e ? undefined : cellText(c, v) || undefined}
                        onClick={() => !e && id && setEditing({ id, col: c.name, text: showValue(c.type, v), err: '' })}
                        onKeyDown={(ev) => { if (!e && ev.key === 'Enter' && id) setEditing({ id, col: c.name, text: showValue(c.type, v), err: '' }); }}>
                        {e ? (
                          <span class="celledit">
                            <CellInput c={c} ids={c.ref ? ids[c.ref] : undefined} value={e.text} testid={`cell-input-${id}-${c.name}`} autoFocus
                              onInput={(t) => setEditing((x) => (x ? { ...x, text: t, err: '' } : x))}
                              onKeyDown={(ev) => {
                                if (ev.key === 'Enter') { ev.preventDefault(); commit(); }
                                if (ev.key === 'Escape') setEditing(null);
                              }} />
                            {e.err && <span class="fielderr" role="alert">{e.err}</span>}
                          </span>
                        ) : (
                          cellText(c, v)
                        )}
                      </td>
                    );
                  })}
                  {extra.map((k) => <td key={k} class="bad">{JSON.stringify(r[k])}</td>)}
                  <td class="rowact">
                    <button class="icon danger" title={`Delete row ${id}`} aria-label={`Delete row ${id}`} data-testid={`row-delete-${id}`}
                      onClick={() => studio.apply([{ op: 'removeRow', table: table.name, id }], `delete row ${id} of ${table.name}`)}>✕</button>
                  </td>
                </tr>
              );
            })}
            {rows.length > SHOWN && (
              <tr><td colSpan={cols.length + 2} class="muted grid-none">{rows.length - SHOWN} more rows in {path}: the grid shows the first {SHOWN}.</td></tr>
            )}
            {rows.length === 0 && (
              <tr><td colSpan={cols.length + 2} class="muted grid-none">No test data yet: add a row.</td></tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * useCut tells whether the grid's scroller hides columns before its left
 * edge (start) or past its right edge (end): on a scroll, when the
 * scroller or its table changes size, and when the rows are read again.
 * A cell the keyboard reaches (focused) is scrolled clear of the held id
 * and delete columns and of the header, where the browser's own scroll to
 * it, which knows nothing of them, left it partly beneath.
 */
function useCut(ref: { current: HTMLDivElement | null }, rows: unknown): { start: boolean; end: boolean } {
  const [cut, setCut] = useState({ start: false, end: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const look = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setCut((c) => (c.start === start && c.end === end ? c : { start, end }));
    };
    const clear = (e: FocusEvent) => {
      const cell = (e.target as HTMLElement).closest?.('td');
      if (!cell || !el.contains(cell) || cell.classList.contains('idcell') || cell.classList.contains('rowact')) return;
      const row = cell.parentElement!;
      const r = cell.getBoundingClientRect();
      const left = row.querySelector('.idcell')?.getBoundingClientRect().right ?? el.getBoundingClientRect().left;
      const right = row.querySelector('.rowact')?.getBoundingClientRect().left ?? el.getBoundingClientRect().right;
      if (r.left < left) el.scrollLeft -= left - r.left;
      else if (r.right > right) el.scrollLeft += Math.min(r.right - right, r.left - left);
      const top = el.querySelector('thead th')?.getBoundingClientRect().bottom ?? el.getBoundingClientRect().top;
      if (r.top < top) el.scrollTop -= top - r.top;
    };
    look();
    el.addEventListener('scroll', look, { passive: true });
    el.addEventListener('focusin', clear);
    const ro = new ResizeObserver(look);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', look);
      el.removeEventListener('focusin', clear);
      ro.disconnect();
    };
  }, [ref.current, rows]);
  return cut;
}

function cellClass(c: Column, v: unknown): string {
  if (v === null || v === undefined) return 'cell null';
  if (c.type === 'int' || c.type === 'num' || c.type === 'money') return 'cell num';
  return 'cell';
}

function cellText(c: Column, v: unknown): string {
  if (v === undefined) return '';
  if (v === null) return 'null';
  return showValue(c.type, v);
}

interface CellInputProps { c: Column; ids?: string[]; value: string; testid: string; autoFocus?: boolean; onInput: (v: string) => void; onKeyDown?: (e: KeyboardEvent) => void }

function CellInput({ c, ids, value, testid, autoFocus, onInput, onKeyDown }: CellInputProps) {
  if (c.type === 'choice' || c.type === 'bool') {
    const opts = c.type === 'bool' ? ['true', 'false'] : c.values ?? [];
    return (
      <select value={value} data-testid={testid} autoFocus={autoFocus} onChange={(e) => onInput((e.target as HTMLSelectElement).value)} onKeyDown={onKeyDown}>
        <option value="">{c.optional ? '(none)' : '—'}</option>
        {opts.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    );
  }
  const list = c.type === 'ref' && ids && ids.length ? `ids-${testid}` : undefined;
  return (
    <>
    {list && <datalist id={list}>{ids!.slice(0, 500).map((i) => <option key={i} value={i} />)}</datalist>}
    <input value={value} data-testid={testid} autoFocus={autoFocus} spellcheck={false} list={list}
      inputMode={c.type === 'int' || c.type === 'money' ? 'numeric' : c.type === 'num' ? 'decimal' : undefined}
      placeholder={c.type === 'time' ? '2024-06-01T10:00:00Z' : c.type === 'ref' ? `id of ${c.ref}` : c.type === 'money' ? 'minor units' : ''}
      onInput={(e) => onInput((e.target as HTMLInputElement).value)} onKeyDown={onKeyDown} />
    </>
  );
}
