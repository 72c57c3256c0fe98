// The 'tent' module as app code sees it when the runner runs it. The
// declarative parts of a definition are read statically by the index; at run
// time a builder only tags its argument so the runner can find the code
// parts (run, may, load, view) by the definition's name.

function tag(kind, def) {
  return Object.assign({}, def, { __tent: kind })
}

export function table(def) { return tag('table', def) }
export function fn(def) { return tag('fn', def) }
export function flow(def) { return tag('flow', def) }
export function project(def) { return tag('project', def) }
export function engine(def) { return tag('engine', def) }

function column(type, extra, opts) {
  return Object.assign({ type }, extra, opts || {})
}

export function text(opts) { return column('text', null, opts) }
export function int(opts) { return column('int', null, opts) }
export function num(opts) { return column('num', null, opts) }
export function money(opts) { return column('money', null, opts) }
export function bool(opts) { return column('bool', null, opts) }
export function time(opts) { return column('time', null, opts) }
export function json(opts) { return column('json', null, opts) }
export function ref(table, opts) { return column('ref', { ref: table }, opts) }
export function choice(choices, opts) { return column('choice', { choices }, opts) }
