// A table's inspector: its name, its columns (rename, type and options,
// reorder, remove, add) and its test data (grid.tsx). Every change is one
// tent/apply of the change tool's operations (docs: change).

import { useEffect, useState } from 'preact/hooks';
import { go } from './app';
import { Grid } from './grid';
import { useReorder } from './reorder';
import type { Studio } from './store';
import { COLUMN_TYPES, type Column, type Model, type Op, type Table } from './types';
import { parseValue, showValue } from './values';

export function Inspector({ studio, model, table }: { studio: Studio; model: Model; table: Table }) {
  const [tab, setTab] = useState<'columns' | 'data'>('columns');
  // On a narrow screen the inspector is a sheet over the diagram's lower
  // part (style.css); its grip makes it take the whole screen and back.
  const [full, setFull] = useState(false);
  return (
    <aside class={'panel sheet' + (tab === 'data' ? ' wide' : '') + (full ? ' full' : '')} aria-label={`Table ${table.name}`}
      data-testid="inspector" data-table={table.name}>
      <button class="sheet-grip" data-testid="sheet-grip" aria-expanded={full} aria-label={full ? 'Show the diagram above the inspector' : 'Give the inspector the whole screen'}
        onClick={() => setFull(!full)}><span aria-hidden="true" /></button>
      <TableHead studio={studio} table={table} />
      <div class="subtabs" role="tablist">
        <button role="tab" class={tab === 'columns' ? 'subtab active' : 'subtab'} aria-selected={tab === 'columns'}
          data-testid="inspector-columns" onClick={() => setTab('columns')}>Columns <span class="muted">{table.columns.length}</span></button>
        <button role="tab" class={tab === 'data' ? 'subtab active' : 'subtab'} aria-selected={tab === 'data'}
          data-testid="inspector-data" onClick={() => setTab('data')}>Test data <span class="muted">{table.rows}</span></button>
      </div>
      {tab === 'columns' ? (
        <Columns studio={studio} model={model} table={table} />
      ) : (
        <Grid studio={studio} table={table} version={model.version} />
      )}
    </aside>
  );
}

function TableHead({ studio, table }: { studio: Studio; table: Table }) {
  const [name, setName] = useState(table.name);
  useEffect(() => setName(table.name), [table.name]);
  const rename = async () => {
    const to = name.trim();
    if (!to || to === table.name) return;
    const ans = await studio.apply([{ op: 'rename', name: table.name, to }], `rename table ${table.name} to ${to}`);
    if (ans) go('tables', to);
  };
  const [confirm, setConfirm] = useState(false);
  const remove = async () => {
    setConfirm(false);
    const ans = await studio.apply([{ op: 'remove', name: table.name }], `remove table ${table.name}`);
    if (ans) go('tables');
  };
  return (
    <div class="panel-head">
      <div class="namebar">
        <input class="title-input" aria-label="Table name" value={name} data-testid="table-name" spellcheck={false}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => { if (e.key === 'Enter') rename(); if (e.key === 'Escape') setName(table.name); }} />
        <button data-testid="table-rename" disabled={name.trim() === table.name || !name.trim()} onClick={rename}>Rename</button>
        <button class="danger" title="Remove the table" aria-label={`Remove table ${table.name}`} data-testid="table-remove" onClick={() => setConfirm(true)}>Remove</button>
        <a class="icon close" href="#/tables" title="Close" aria-label="Close the inspector" data-testid="inspector-close">×</a>
      </div>
      {confirm && (
        <div class="confirm" role="alertdialog" aria-label={`Remove table ${table.name}?`}>
          <span>Remove the table <strong>{table.name}</strong>? Its data is dropped (it goes into the project's <code>removed</code>); code that uses it is listed, not changed.</span>
          <button class="danger" data-testid="confirm-yes" onClick={remove}>Remove</button>
          <button data-testid="confirm-no" onClick={() => setConfirm(false)}>Cancel</button>
        </div>
      )}
      <div class="meta-line">
        <a href="#" class="place" onClick={(e) => { e.preventDefault(); studio.open(table.path, table.range.start.line + 1, table.range.end.line + 1); }}>
          {table.path}:{table.range.start.line + 1}
        </a>
        {table.was.length > 0 && <span class="muted"> · was {table.was.join(', ')}</span>}
        {table.removed.length > 0 && <span class="muted"> · removed {table.removed.join(', ')}</span>}
      </div>
    </div>
  );
}

/** moveColumn is the operation that moves a table's column at index from
 * to index to: before the column there (moved up) or after it (down). The
 * buttons, the keys and a drag send it alike. */
export function moveColumn(table: Table, from: number, to: number): Op | null {
  const cols = table.columns;
  if (from === to || from < 0 || to < 0 || from >= cols.length || to >= cols.length) return null;
  const column = `${table.name}.${cols[from].name}`;
  return to < from ? { op: 'moveColumn', column, before: cols[to].name } : { op: 'moveColumn', column, after: cols[to].name };
}

function Columns({ studio, model, table }: { studio: Studio; model: Model; table: Table }) {
  const tables = model.tables.map((t) => t.name);
  const move = (from: number, to: number) => {
    const op = moveColumn(table, from, to);
    if (op) studio.apply([op], `move ${table.name}.${table.columns[from].name} ${to < from ? 'up' : 'down'}`);
  };
  const re = useReorder<HTMLDivElement>(move);
  return (
    <div class={re.dragging ? 'columns dragging' : 'columns'} {...re.list}>
      <div class="colcard implicit" title="Every table has an id (text, unique), made by the framework">
        <span class="colname-fixed">id</span>
        <span class="muted">text · unique · implicit</span>
      </div>
      {table.columns.length > 1 && <p class="muted small-note colhint">drag ⠿, or Alt+↑ / Alt+↓ in a column, to reorder</p>}
      {table.columns.map((c, i) => (
        <ColumnRow key={table.name + '.' + c.name} studio={studio} table={table} c={c} index={i} tables={tables}
          move={move} cls={re.itemClass(i)} onHandle={re.handle(i)} />
      ))}
      <AddColumn studio={studio} table={table} tables={tables} />
      <Indexes studio={studio} table={table} />
    </div>
  );
}

function Indexes({ studio, table }: { studio: Studio; table: Table }) {
  const [cols, setCols] = useState<string[]>([]);
  const [pick, setPick] = useState('');
  useEffect(() => setCols([]), [table.name]);
  const add = async () => {
    if (!cols.length) return;
    const ans = await studio.apply([{ op: 'addIndex', table: table.name, columns: cols }], `add the index ${cols.join('+')} to ${table.name}`);
    if (ans) setCols([]);
  };
  return (
    <section class="indexes" aria-label="Indexes">
      <h3>Indexes</h3>
      {table.indexes.length === 0 && <p class="muted small-note">None: every lookup but by id reads the whole table.</p>}
      <ul class="idxlist">
        {table.indexes.map((ix) => {
          const key = ix.join('+');
          return (
            <li key={key} data-testid={`index-${key}`}>
              <span class="mono">{ix.join(', ')}</span>
              <button class="icon danger" aria-label={`Remove the index ${key}`} data-testid={`index-remove-${key}`}
                onClick={() => studio.apply([{ op: 'removeIndex', table: table.name, columns: ix }], `remove the index ${key} of ${table.name}`)}>✕</button>
            </li>
          );
        })}
      </ul>
      <div class="colline">
        <select aria-label="Column for a new index" value={pick} data-testid="index-column"
          onChange={(e) => { const v = (e.target as HTMLSelectElement).value; if (v) setCols((c) => (c.includes(v) ? c : [...c, v])); setPick(''); }}>
          <option value="">{cols.length ? `${cols.join(', ')} + …` : 'Index on…'}</option>
          {table.columns.filter((c) => !cols.includes(c.name)).map((c) => <option key={c.name} value={c.name}>{c.name}</option>)}
        </select>
        {cols.length > 0 && <button class="small" onClick={() => setCols([])}>Clear</button>}
        <span class="grow" />
        <button data-testid="index-add" disabled={!cols.length} onClick={add}>Add index</button>
      </div>
    </section>
  );
}

interface ColumnRowProps {
  studio: Studio;
  table: Table;
  c: Column;
  index: number;
  tables: string[];
  /** move moves the column at one index to another (moveColumn) */
  move: (from: number, to: number) => void;
  /** cls: the card's classes while a column is dragged */
  cls: string;
  /** onHandle starts a drag from the card's handle */
  onHandle: (e: PointerEvent) => void;
}

function ColumnRow({ studio, table, c, index, tables, move, cls, onHandle }: ColumnRowProps) {
  const [name, setName] = useState(c.name);
  const [values, setValues] = useState((c.values ?? []).join(', '));
  const [def, setDef] = useState(showValue(c.type, c.default));
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState('');
  useEffect(() => setName(c.name), [c.name]);
  useEffect(() => setValues((c.values ?? []).join(', ')), [c.values?.join(',')]);
  useEffect(() => setDef(showValue(c.type, c.default)), [JSON.stringify(c.default), c.type]);
  const id = `${table.name}.${c.name}`;
  const set = (fields: Record<string, unknown>, what: string) => studio.apply([{ op: 'setColumn', column: id, ...fields }], what);
  const rename = () => {
    const to = name.trim();
    if (to && to !== c.name) studio.apply([{ op: 'rename', name: id, to }], `rename column ${id} to ${to}`);
  };
  // a choice needs its values before it can be written: asked in the card
  const [toChoice, setToChoice] = useState(false);
  const setType = (type: string) => {
    if (type === 'choice' && !(c.values && c.values.length)) {
      setToChoice(true);
      return;
    }
    setToChoice(false);
    const f: Record<string, unknown> = { type };
    if (type === 'ref') f.ref = c.ref ?? tables.find((t) => t !== table.name) ?? table.name;
    if (type === 'choice') f.values = c.values;
    set(f, `make ${id} ${type}`);
  };
  const commitValues = () => {
    const vs = splitValues(values);
    if (toChoice) {
      if (vs.length) set({ type: 'choice', values: vs }, `make ${id} a choice of ${vs.join(', ')}`).then((a) => a && setToChoice(false));
      return;
    }
    if (vs.join(',') !== (c.values ?? []).join(',')) set({ values: vs }, `set the choices of ${id}`);
  };
  const commitDefault = () => {
    if (def === showValue(c.type, c.default)) return;
    const p = parseValue(c, def);
    if (!p.ok) { setErr(p.error); return; }
    setErr('');
    set({ default: p.value }, p.value === null ? `drop the default of ${id}` : `set the default of ${id}`);
  };
  const last = index === table.columns.length - 1;
  return (
    <div class={'colcard' + cls} data-testid={`column-${c.name}`} data-type={c.type} data-reorder-index={index}
      onKeyDown={(e) => {
        if ((e.target as HTMLElement).tagName === 'SELECT') return; // Alt+↓ opens a select
        if (e.altKey && e.key === 'ArrowUp') { e.preventDefault(); move(index, index - 1); }
        if (e.altKey && e.key === 'ArrowDown') { e.preventDefault(); move(index, index + 1); }
      }}>
      <div class="colline">
        <span class="handle" title="Drag to reorder" aria-hidden="true" data-testid={`col-handle-${c.name}`} onPointerDown={onHandle}>⠿</span>
        <input class="colname" aria-label={`Name of ${c.name}`} value={name} data-testid={`col-name-${c.name}`} spellcheck={false}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => { if (e.key === 'Enter') rename(); if (e.key === 'Escape') setName(c.name); }} />
        {name.trim() !== c.name && name.trim() && <button class="small" data-testid={`col-rename-${c.name}`} onClick={rename}>Rename</button>}
        <select aria-label={`Type of ${c.name}`} value={toChoice ? 'choice' : c.type} data-testid={`col-type-${c.name}`} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
          {COLUMN_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <span class="colbtns">
          <button class="icon" title="Move up (Alt+↑)" aria-label={`Move ${c.name} up`} data-testid={`col-up-${c.name}`} disabled={index === 0}
            onClick={() => move(index, index - 1)}>↑</button>
          <button class="icon" title="Move down (Alt+↓)" aria-label={`Move ${c.name} down`} data-testid={`col-down-${c.name}`} disabled={last}
            onClick={() => move(index, index + 1)}>↓</button>
          <button class="icon danger" title="Remove" aria-label={`Remove ${c.name}`} data-testid={`col-remove-${c.name}`} onClick={() => setConfirm(true)}>✕</button>
        </span>
      </div>
      <div class="colline opts">
        {c.type === 'ref' && (
          <label class="inline">→
            <select aria-label={`Table ${c.name} refers to`} value={c.ref ?? ''} data-testid={`col-ref-${c.name}`}
              onChange={(e) => set({ ref: (e.target as HTMLSelectElement).value }, `point ${id} at ${(e.target as HTMLSelectElement).value}`)}>
              {tables.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
        )}
        {(c.type === 'choice' || toChoice) && (
          <input class="values" aria-label={`Choices of ${c.name}`} value={values} placeholder="its choices: a, b, c" data-testid={`col-values-${c.name}`}
            autoFocus={toChoice} onInput={(e) => setValues((e.target as HTMLInputElement).value)} onBlur={commitValues}
            onKeyDown={(e) => { if (e.key === 'Enter') commitValues(); if (e.key === 'Escape' && toChoice) setToChoice(false); }} />
        )}
        {toChoice && <span class="muted small-note">Enter the choices to make it a choice (Escape: keep {c.type})</span>}
        <input class="default" aria-label={`Default of ${c.name}`} value={def} placeholder="default" data-testid={`col-default-${c.name}`}
          onInput={(e) => setDef((e.target as HTMLInputElement).value)} onBlur={commitDefault}
          onKeyDown={(e) => { if (e.key === 'Enter') commitDefault(); if (e.key === 'Escape') setDef(showValue(c.type, c.default)); }} />
        {(['optional', 'private', 'unique'] as const).map((o) => (
          <label class="check" key={o}>
            <input type="checkbox" checked={c[o]} data-testid={`col-${o}-${c.name}`}
              onChange={(e) => set({ [o]: (e.target as HTMLInputElement).checked }, `${(e.target as HTMLInputElement).checked ? 'make' : 'unmake'} ${id} ${o}`)} />
            {o}
          </label>
        ))}
      </div>
      {c.was.length > 0 && <div class="colnote muted">was {c.was.join(', ')}</div>}
      {err && <div class="fielderr" role="alert">{err}</div>}
      {confirm && (
        <div class="confirm" role="alertdialog" aria-label={`Remove ${id}?`}>
          <span>Remove <strong>{id}</strong>? Its data is dropped (it goes into the table's <code>removed</code>).</span>
          <button class="danger" data-testid="confirm-yes" onClick={() => { setConfirm(false); studio.apply([{ op: 'remove', name: id }], `remove column ${id}`); }}>Remove</button>
          <button data-testid="confirm-no" onClick={() => setConfirm(false)}>Cancel</button>
        </div>
      )}
    </div>
  );
}

function splitValues(s: string): string[] {
  return s.split(',').map((v) => v.trim()).filter((v) => v !== '');
}

function AddColumn({ studio, table, tables }: { studio: Studio; table: Table; tables: string[] }) {
  const [name, setName] = useState('');
  const [type, setType] = useState('text');
  const [ref, setRef] = useState(tables[0] ?? '');
  const [values, setValues] = useState('');
  const [optional, setOptional] = useState(true);
  const submit = async (e: Event) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    const op: Op = { op: 'addColumn', table: table.name, name: n, type };
    if (type === 'ref') op.ref = ref;
    if (type === 'choice') op.values = splitValues(values);
    if (optional) op.optional = true;
    const ans = await studio.apply([op], `add column ${table.name}.${n}`);
    if (ans) { setName(''); setValues(''); }
  };
  return (
    <form class="addcol" onSubmit={submit} aria-label="Add a column">
      <h3>Add a column</h3>
      <div class="colline">
        <input class="colname" placeholder="name" aria-label="New column's name" value={name} data-testid="add-column-name" spellcheck={false}
          onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <select aria-label="New column's type" value={type} data-testid="add-column-type" onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
          {COLUMN_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </div>
      <div class="colline opts">
        {type === 'ref' && (
          <label class="inline">→
            <select aria-label="Table the new column refers to" value={ref} data-testid="add-column-ref" onChange={(e) => setRef((e.target as HTMLSelectElement).value)}>
              {tables.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
        )}
        {type === 'choice' && (
          <input class="values" placeholder="a, b, c" aria-label="New column's choices" value={values} data-testid="add-column-values"
            onInput={(e) => setValues((e.target as HTMLInputElement).value)} />
        )}
        <label class="check">
          <input type="checkbox" checked={optional} data-testid="add-column-optional" onChange={(e) => setOptional((e.target as HTMLInputElement).checked)} />
          optional
        </label>
        <span class="grow" />
        <button class="primary" type="submit" data-testid="add-column-submit" disabled={!name.trim()}>Add column</button>
      </div>
    </form>
  );
}
