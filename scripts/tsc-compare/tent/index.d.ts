// A small type declaration of the 'tent' module, enough for tsc --noEmit to
// check a tent project (scripts/tsc-compare.sh). It is not the framework's
// tent.d.ts: builders take their definitions contextually typed, rows are
// any, and table() gives back the columns it was given.

export interface Column<T = unknown> {
  readonly __type?: T
}

export interface ColumnOptions<T = unknown> {
  optional?: boolean
  private?: boolean
  unique?: boolean
  default?: T | null
  was?: string | string[]
}

export declare function text(options?: ColumnOptions<string>): Column<string>
export declare function int(options?: ColumnOptions<number>): Column<number>
export declare function num(options?: ColumnOptions<number>): Column<number>
export declare function money(options?: ColumnOptions<number>): Column<number>
export declare function bool(options?: ColumnOptions<boolean>): Column<boolean>
export declare function time(options?: ColumnOptions<string>): Column<string>
export declare function json(options?: ColumnOptions<unknown>): Column<unknown>
export declare function ref(table: string, options?: ColumnOptions<string>): Column<string>
export declare function choice(values: string[], options?: ColumnOptions<string>): Column<string>

export interface Query {
  limit?: number
  order?: string
}

export interface Rows {
  all(query?: Query): Promise<any[]>
  where(match: Record<string, unknown>, query?: Query): Promise<any[]>
  get(id: string): Promise<any>
  insert(row: Record<string, unknown>): Promise<any>
  update(id: string, patch: Record<string, unknown>): Promise<any>
  remove(id: string): Promise<void>
}

export interface Response {
  ok: boolean
  status: number
  json(): Promise<any>
  text(): Promise<string>
}

export interface Ctx {
  db: Record<string, Rows>
  user: any
  call(name: string, input?: unknown): Promise<any>
  mail: { send(message: { to: string; subject: string; text: string }): Promise<void> }
  http: { fetch(url: string, init?: Record<string, unknown>): Promise<Response> }
  now(): string
  log(...args: unknown[]): void
}

export type Fields = Record<string, Column<any>>

export interface TableDefinition<C extends Fields> {
  columns: C
  indexes?: string[][]
  was?: string | string[]
  removed?: string[]
  may?: {
    read?: (ctx: Ctx, row: any) => boolean
    write?: (ctx: Ctx, row: any) => boolean
  }
}

export declare function table<C extends Fields>(definition: TableDefinition<C>): { columns: C }

export interface FnDefinition {
  input?: Fields
  sends?: Array<'mail' | 'http'>
  may?: (ctx: Ctx) => boolean
  run: (ctx: Ctx, input: any) => unknown
}

export declare function fn(definition: FnDefinition): FnDefinition

export interface FlowDefinition {
  input?: Fields
  steps: string[]
}

export declare function flow(definition: FlowDefinition): FlowDefinition

export declare function project(definition: { name: string; users?: string; removed?: string[] }): unknown

export declare function engine(definition: {
  mail?: { from: string }
  http?: { allow: string[] }
}): unknown
