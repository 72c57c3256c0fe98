// Values as a person types them, read by a column's type: a text is itself,
// a number a number, a bool true or false, json any JSON; empty is null.

import type { Column } from './types';

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

const STRINGY = new Set(['text', 'time', 'ref', 'choice']);

/** parseValue reads the text typed for a value of column c. */
export function parseValue(c: Pick<Column, 'type' | 'values' | 'name'>, text: string): Parsed {
  const s = text.trim();
  if (s === '') return { ok: true, value: null };
  if (STRINGY.has(c.type)) {
    if (c.type === 'choice' && c.values && !c.values.includes(text)) {
      return { ok: false, error: `${c.name} is one of ${c.values.join(', ')}` };
    }
    return { ok: true, value: text };
  }
  if (c.type === 'bool') {
    if (s === 'true' || s === 'false') return { ok: true, value: s === 'true' };
    return { ok: false, error: `${c.name} is true or false` };
  }
  if (c.type === 'int' || c.type === 'money' || c.type === 'num') {
    const n = Number(s);
    if (!Number.isFinite(n)) return { ok: false, error: `${c.name} is a number` };
    if (c.type !== 'num' && !Number.isInteger(n)) return { ok: false, error: `${c.name} is a whole number${c.type === 'money' ? ' (minor units, e.g. cents)' : ''}` };
    return { ok: true, value: n };
  }
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false, error: `${c.name} is JSON` };
  }
}

/** showValue writes a value as parseValue reads it back. */
export function showValue(type: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' && STRINGY.has(type)) return v;
  return JSON.stringify(v);
}
