// The page's state: one session with the language server, the model it
// answers, the findings it publishes, the history, and what the person is
// being told (a refusal) or asked (the policy's ask). Components read it
// through useStudio and change the project only through apply and call.

import { useEffect, useState } from 'preact/hooks';
import { Conn, RPCError } from './rpc';
import type { ApplyAnswer, Diagnostic, Finding, Model, Op, Point } from './types';

export type ConnState = 'connecting' | 'ready' | 'closed';

/** The history panel shows the newest HISTORY_SHOWN points. */
export const HISTORY_SHOWN = 30;

export interface Refusal { code: string; message: string; op?: number; ops?: number; what: string }
export interface Ask { message: string; actions: string[]; answer: (title: string | null) => void }
export interface Selection { kind: 'table' | 'flow' | 'function' | 'screen'; name: string }
export interface Source { path: string; line: number; last: number; from: number; text: string; lines: number }
export interface Toast { text: string; at: number }

export interface State {
  conn: ConnState;
  connError: string;
  name: string;
  root: string;
  model: Model | null;
  modelMs: number;
  diagnostics: Map<string, Diagnostic[]>;
  history: Point[];
  refusal: Refusal | null;
  ask: Ask | null;
  selection: Selection | null;
  source: Source | null;
  busy: number;
  toast: Toast | null;
}

interface StudioInfo { root?: string; rootUri?: string; lsp?: string; name?: string; version?: string }

/** Studio holds the state and the session; one per page. */
export class Studio {
  state: State = {
    conn: 'connecting', connError: '', name: '', root: '', model: null, modelMs: 0,
    diagnostics: new Map(), history: [], refusal: null, ask: null, selection: null,
    source: null, busy: 0, toast: null,
  };
  private subs = new Set<() => void>();
  private conn: Conn | null = null;
  private rootUri = '';
  private fetching = false;
  private wanted = 0;
  private again = false;
  private historyTimer = 0;
  private retry = 0;
  private pendingDiags = new Map<string, Diagnostic[]>();
  private diagTimer = 0;
  private findingsOf: { from: Map<string, Diagnostic[]>; list: Finding[] } | null = null;

  subscribe(fn: () => void): () => void {
    this.subs.add(fn);
    return () => this.subs.delete(fn);
  }

  set(patch: Partial<State>) {
    this.state = { ...this.state, ...patch };
    for (const fn of this.subs) fn();
  }

  /** start connects (again after a lost connection, with a growing pause). */
  async start(): Promise<void> {
    this.set({ conn: 'connecting' });
    try {
      const info = await fetchInfo();
      this.rootUri = info.rootUri ?? '';
      const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + (info.lsp ?? '/lsp');
      const conn = await Conn.open(url, {
        onNotify: (m, p) => this.notified(m, p),
        onRequest: (m, p) => this.asked(m, p),
        onClose: (reason) => this.lost(reason),
      });
      this.conn = conn;
      await conn.request('initialize', {
        processId: null,
        clientInfo: { name: 'tent-tools studio' },
        rootUri: this.rootUri || null,
        workspaceFolders: this.rootUri ? [{ uri: this.rootUri, name: info.name ?? 'project' }] : null,
        capabilities: {
          general: { positionEncodings: ['utf-16'] },
          window: { showMessage: {}, workDoneProgress: false },
          workspace: { applyEdit: false },
          textDocument: { publishDiagnostics: {} },
        },
        initializationOptions: { writes: 'server', agent: 'studio' },
      });
      // a new session publishes every file's findings again
      this.pendingDiags.clear();
      this.set({ diagnostics: new Map() });
      conn.notify('initialized', {});
      performance.mark('tent:initialized');
      this.retry = 0;
      this.set({ conn: 'ready', connError: '', name: info.name ?? '', root: info.root ?? '' });
      await Promise.all([this.refresh(0), this.loadHistory()]);
    } catch (e) {
      this.conn?.close();
      this.lost(e instanceof Error ? e.message : String(e));
    }
  }

  private lost(reason: string) {
    this.conn = null;
    this.set({ conn: 'closed', connError: reason });
    this.retry = Math.min(this.retry + 1, 6);
    setTimeout(() => this.start(), 500 * this.retry);
  }

  /**
   * refresh asks tent/model again, naming the tag of the model it holds
   * (since): an unchanged model answers its version alone, not its 4 MB
   * at 1,000 tables. Asks that come while one is on its way make one more.
   */
  async refresh(version: number): Promise<void> {
    this.wanted = Math.max(this.wanted, version);
    this.again = true;
    if (this.fetching || !this.conn) return;
    this.fetching = true;
    try {
      // a server whose model lags the version it told is asked thrice, not forever
      for (let tries = 0; this.again && this.conn && tries < 3; tries++) {
        this.again = false;
        const held = this.state.model;
        const t0 = performance.now();
        const m = await this.conn.request<Model & { unchanged?: boolean }>('tent/model', held?.tag ? { since: held.tag } : {});
        const ms = Math.round(performance.now() - t0);
        if (m.unchanged && held) {
          if (m.version !== held.version) this.set({ model: { ...held, version: m.version }, modelMs: ms });
        } else {
          performance.mark('tent:model');
          this.set({ model: m, modelMs: ms });
        }
        if (m.version < this.wanted) this.again = true;
      }
    } finally {
      this.fetching = false;
    }
    if (this.again) setTimeout(() => this.refresh(this.wanted), 500);
  }

  async loadHistory(): Promise<void> {
    try {
      const ans = await this.call<{ points: Point[] }>('history', { newest: HISTORY_SHOWN });
      this.set({ history: ans.points ?? [] });
    } catch {
      // a history that cannot be read leaves the list as it was; the refusal
      // of a later undo tells why
    }
  }

  private notified(method: string, params: unknown) {
    if (method === 'tent/changed') {
      const p = params as { version?: number };
      // asked on every change: typing in an open buffer moves ranges
      // without a new version, and an unchanged model costs a few bytes
      this.refresh(p.version ?? 0);
      clearTimeout(this.historyTimer);
      this.historyTimer = window.setTimeout(() => this.loadHistory(), 150);
    } else if (method === 'textDocument/publishDiagnostics') {
      // A change publishes many files at once: they are drawn together.
      const p = params as { uri: string; diagnostics: Diagnostic[] };
      this.pendingDiags.set(p.uri, p.diagnostics);
      if (!this.diagTimer) this.diagTimer = window.setTimeout(() => this.flushDiagnostics(), 30);
    } else if (method === 'window/showMessage') {
      const p = params as { message: string };
      this.set({ toast: { text: p.message, at: Date.now() } });
    }
  }

  private flushDiagnostics() {
    this.diagTimer = 0;
    const d = new Map(this.state.diagnostics);
    for (const [uri, ds] of this.pendingDiags) {
      if (ds.length) d.set(uri, ds);
      else d.delete(uri);
    }
    this.pendingDiags.clear();
    this.set({ diagnostics: d });
  }

  private asked(method: string, params: unknown): Promise<unknown> {
    if (method === 'window/showMessageRequest') {
      const p = params as { message: string; actions?: { title: string }[] };
      return new Promise((resolve) => {
        this.set({
          ask: {
            message: p.message,
            actions: (p.actions ?? []).map((a) => a.title),
            answer: (title) => {
              this.set({ ask: null });
              resolve(title ? { title } : null);
            },
          },
        });
      });
    }
    if (method === 'workspace/applyEdit') return Promise.resolve({ applied: true });
    return Promise.resolve(null);
  }

  /** call runs a tool through tent/call and answers its data. */
  async call<T>(tool: string, input: unknown): Promise<T> {
    if (!this.conn) throw new Error('not connected');
    const ans = await this.conn.request<{ text: string; data: T }>('tent/call', { tool, input });
    return ans.data;
  }

  /**
   * apply runs operations through tent/apply; a refusal is shown to the
   * person (what names the action) and answers null.
   */
  async apply(ops: Op[], what: string, dryRun = false): Promise<ApplyAnswer | null> {
    if (!this.conn) {
      this.set({ refusal: { code: '', message: 'not connected to tent-tools', what } });
      return null;
    }
    this.set({ busy: this.state.busy + 1 });
    try {
      const ans = await this.conn.request<ApplyAnswer>('tent/apply', { ops, dryRun });
      if (!dryRun) {
        this.set({ refusal: null });
        await this.refresh(ans.version);
        this.loadHistory();
      }
      return ans;
    } catch (e) {
      this.refuse(e, what, ops.length);
      return null;
    } finally {
      this.set({ busy: this.state.busy - 1 });
    }
  }

  /** run calls a tool that writes (undo) and shows a refusal like apply. */
  async run<T>(tool: string, input: unknown, what: string): Promise<T | null> {
    this.set({ busy: this.state.busy + 1 });
    try {
      const ans = await this.call<T>(tool, input);
      this.set({ refusal: null });
      this.loadHistory();
      return ans;
    } catch (e) {
      this.refuse(e, what);
      return null;
    } finally {
      this.set({ busy: this.state.busy - 1 });
    }
  }

  refuse(e: unknown, what: string, ops = 1) {
    if (e instanceof RPCError) {
      this.set({ refusal: { code: e.toolCode, message: e.message, op: e.op, ops, what } });
    } else {
      this.set({ refusal: { code: '', message: e instanceof Error ? e.message : String(e), what } });
    }
  }

  /** open shows the source around path:line to last (1-based) from the read tool. */
  async open(path: string, line: number, last = line): Promise<void> {
    const from = Math.max(1, line - 6);
    const to = Math.min(Math.max(line + 14, last + 2), line + 400);
    try {
      const ans = await this.call<{ path: string; from: number; text: string; lines: number }>('read', { path, from, to });
      this.set({ source: { path: ans.path, line, last, from: ans.from, text: ans.text, lines: ans.lines } });
    } catch (e) {
      this.refuse(e, `open ${path}:${line}`);
    }
  }

  select(sel: Selection | null) {
    this.set({ selection: sel });
  }

  /** findings lists the published diagnostics, errors first, by place. */
  findings(): Finding[] {
    if (this.findingsOf?.from === this.state.diagnostics) return this.findingsOf.list;
    const out: Finding[] = [];
    for (const [uri, ds] of this.state.diagnostics) {
      const path = this.pathOf(uri);
      for (const d of ds) out.push({ ...d, path });
    }
    out.sort((a, b) => (a.severity ?? 1) - (b.severity ?? 1) || a.path.localeCompare(b.path) || a.range.start.line - b.range.start.line);
    this.findingsOf = { from: this.state.diagnostics, list: out };
    return out;
  }

  /** pathOf turns a file URI of the project into its project path. */
  pathOf(uri: string): string {
    let u = uri;
    if (this.rootUri && u.startsWith(this.rootUri)) u = u.slice(this.rootUri.length).replace(/^\/+/, '');
    try {
      return decodeURIComponent(u);
    } catch {
      return u;
    }
  }
}

async function fetchInfo(): Promise<StudioInfo> {
  const r = await fetch('studio.json', { credentials: 'same-origin' });
  if (r.status === 401) throw new Error('the studio does not know this page (it was started again?): open the address it printed');
  if (!r.ok) throw new Error(`studio.json: ${r.status} ${r.statusText}`);
  return r.json();
}

/** useStudio re-renders the component on every change of the state. */
export function useStudio(s: Studio): State {
  const [st, setSt] = useState(s.state);
  useEffect(() => s.subscribe(() => setSt(s.state)), [s]);
  return st;
}
