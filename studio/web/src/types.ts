// The shapes the language server answers (docs: model, change, history, read).

export interface Pos { line: number; character: number }
export interface Range { start: Pos; end: Pos }

export interface Column {
  name: string;
  type: string;
  ref: string | null;
  values: string[] | null;
  optional: boolean;
  private: boolean;
  unique: boolean;
  default: unknown;
  was: string[];
  range: Range;
}

export interface Table {
  name: string;
  path: string;
  range: Range;
  nameRange?: Range;
  columns: Column[];
  indexes: string[][];
  removed: string[];
  was: string[];
  rows: number;
}

export interface Input { name: string; type: string; ref: string | null; values?: string[] | null; optional: boolean; default?: unknown }

export interface Func {
  name: string;
  path: string;
  range: Range;
  input: Input[];
  sends: string[];
  calls: string[];
  reads: string[];
  writes: string[];
}

export interface Flow { name: string; path: string; range: Range; input: Input[]; steps: string[]; sends?: string[] }

export interface Screen { name: string; path: string; range: Range; route: string; title: string; loads: string[] }

export interface Model {
  /** A digest of the model's JSON: tent/model {since: tag} answers unchanged while it holds. */
  tag?: string;
  version: number;
  project: { name: string; users: string; removed?: string[]; path: string } | null;
  tables: Table[];
  functions: Func[];
  flows: Flow[];
  screens: Screen[];
  findings: { errors: number; warnings: number; infos?: number };
}

export interface Point {
  point: number;
  time: string;
  who: string;
  agent: string;
  kind: string;
  tool: string;
  summary: string;
  files: string[];
  /** on an undo point, the points it put back */
  undid?: number[];
  /** on a point no longer in effect, the undo point that put it back */
  undoneBy?: number;
}

export interface Diagnostic {
  range: Range;
  severity?: number;
  code?: string | number;
  message: string;
  /** The finding's certain fix: text for the bytes start to end of path. */
  data?: { fix?: { title: string; path: string; start: number; end: number; text: string } };
}

/** A finding as the page lists it: a diagnostic with its file. */
export interface Finding extends Diagnostic { path: string }

export interface ApplyAnswer {
  version: number;
  point: number | null;
  changed: { path: string; line: number }[];
  left?: unknown[];
  diff?: string;
}

/** An operation of tent/apply (docs: change). */
export type Op = { op: string; [field: string]: unknown };

/** The column types of the format (docs: format §2). */
export const COLUMN_TYPES = ['text', 'int', 'num', 'money', 'bool', 'time', 'json', 'ref', 'choice'];
