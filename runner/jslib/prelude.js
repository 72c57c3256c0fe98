// The runner's side of one run, inside the JavaScript runtime. The runner
// evaluates this expression after its guards (guard.js) and before any app
// code, and calls it with `host`, its Go primitives (which pass rows as
// JSON text), the run's user (null for nobody, { system: true } for the
// system) and the run's fixed time. It answers { run, console }:
// run(name, inputJSON) starts a function or a flow and answers a promise
// of its result, which the host makes JSON.
//
// App code runs in the same runtime and may replace any global or
// prototype method, so everything this file uses after app code has run
// is taken here, before: JSON, Object's and Array's functions, Error. It
// keeps its own state in objects with no prototype, iterates with indexes
// (never an app-replaceable iterator), and hands app code only frozen
// things. A refusal's code (T3104, T4001, ...) is made by the host
// (host.fail) and known to it by the error object: a `tentCode` an app
// writes on its own error means nothing.
(function (host, user, now) {
  'use strict'

  const parse = JSON.parse
  const stringify = JSON.stringify
  const assign = Object.assign
  const create = Object.create
  const freeze = Object.freeze
  const isFrozen = Object.isFrozen
  const keys = Object.keys
  const isArray = Array.isArray
  const StringCtor = String
  const ErrorCtor = Error
  const TypeErrorCtor = TypeError
  const ProxyCtor = Proxy

  function fail(code, message) {
    return host.fail(code, message)
  }

  // deepFreeze freezes a plain JSON-like value and all it holds.
  function deepFreeze(v) {
    if (v === null || typeof v !== 'object' || isFrozen(v)) return v
    freeze(v)
    const ks = keys(v)
    for (let i = 0; i < ks.length; i++) deepFreeze(v[ks[i]])
    return v
  }
  deepFreeze(user)

  const system = user !== null && user.system === true

  // In a screen's session (its load, its view and what load calls) the
  // rows handed to app code lack the private columns: hidden is, by table,
  // the names to leave out (null outside a screen). May rules still judge
  // the whole rows; app code never holds a private value, so no way of
  // writing one out (reversed, spaced, encoded) can reach the page.
  const hidden = host.hiddenColumns()
  function shown(table, v) {
    if (hidden === null || v === null || typeof v !== 'object') return v
    const names = hidden[table]
    if (names === undefined) return v
    if (isArray(v)) {
      const out = []
      for (let i = 0; i < v.length; i++) out[out.length] = shown(table, v[i])
      return out
    }
    const out = {}
    const ks = keys(v)
    for (let i = 0; i < ks.length; i++) {
      let kept = true
      for (let j = 0; j < names.length; j++) if (names[j] === ks[i]) kept = false
      if (kept) out[ks[i]] = v[ks[i]]
    }
    return out
  }

  function who() {
    if (user === null) return 'nobody'
    if (system) return 'the system'
    return 'user ' + user.id
  }

  function show(v) {
    if (typeof v === 'string') return v
    if (v instanceof ErrorCtor) return v.stack || StringCtor(v)
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return StringCtor(v)
    try {
      const s = stringify(v)
      return s === undefined ? StringCtor(v) : s
    } catch (e) {
      return StringCtor(v)
    }
  }

  function logger(prefix) {
    return function () {
      let line = prefix
      for (let i = 0; i < arguments.length; i++) line += (i > 0 ? ' ' : '') + show(arguments[i])
      host.log(line)
    }
  }

  // May rules of tables, loaded once per run, and only those a table has.
  const mays = create(null)
  function rule(table, name) {
    const key = table + '.' + name
    if (!(key in mays)) {
      const f = host.tableMay(table, name)
      mays[key] = typeof f === 'function' ? f : null
    }
    return mays[key]
  }

  async function allowed(table, name, row) {
    if (system) return true
    const f = rule(table, name)
    return f === null ? true : !!(await f(ctx, row))
  }

  async function writable(table, row, what) {
    if (!(await allowed(table, 'write', row))) {
      throw fail('T3104', `${table}: may.write refused ${who()} for ${what}`)
    }
  }

  async function readable(table, rows, limit) {
    if (system || rule(table, 'read') === null) return rows
    const out = []
    for (let i = 0; i < rows.length; i++) {
      if (limit > 0 && out.length >= limit) break
      if (await allowed(table, 'read', rows[i])) out[out.length] = rows[i]
    }
    return out
  }

  function options(opts) {
    if (opts === undefined || opts === null) return {}
    if (typeof opts !== 'object') throw new TypeErrorCtor('options are an object such as { limit: 10, order: "-placedAt" }')
    return opts
  }

  async function select(table, match, opts) {
    opts = options(opts)
    const limit = opts.limit === undefined ? 0 : opts.limit
    // Rows a read rule hides must not use up the limit: filter, then cut.
    const sqlLimit = system || rule(table, 'read') === null ? limit : 0
    const rows = parse(host.select(table, stringify(match), opts.order === undefined ? '' : StringCtor(opts.order), sqlLimit))
    return shown(table, await readable(table, rows, limit))
  }

  function tableAccess(table) {
    return freeze({
      all: (opts) => select(table, {}, opts),
      where: (match, opts) => {
        if (match === null || typeof match !== 'object') throw new TypeErrorCtor(`ctx.db.${table}.where wants an object of column values`)
        return select(table, match, opts)
      },
      get: async (id) => {
        const s = host.get(table, StringCtor(id))
        if (s === null) return null
        const row = parse(s)
        return (await allowed(table, 'read', row)) ? shown(table, row) : null
      },
      insert: async (row) => {
        const r = parse(host.prepareInsert(table, stringify(row)))
        await writable(table, r, 'a new row')
        host.insert(table, stringify(r))
        return shown(table, r)
      },
      update: async (id, patch) => {
        const pair = parse(host.prepareUpdate(table, StringCtor(id), stringify(patch)))
        await writable(table, pair[0], 'row ' + id)
        await writable(table, pair[1], 'row ' + id + ' as updated')
        host.put(table, stringify(pair[1]))
        return shown(table, pair[1])
      },
      remove: async (id) => {
        const s = host.get(table, StringCtor(id))
        if (s === null) throw new ErrorCtor(`${table} has no row ${id}`)
        const old = parse(s)
        await writable(table, old, 'row ' + id)
        host.remove(table, StringCtor(id))
        return shown(table, old)
      },
    })
  }

  // ctx.db: a table's access is made on first use; nothing can be set on it.
  const tablesSeen = create(null)
  const refuse = () => {
    throw new TypeErrorCtor('ctx.db cannot be changed')
  }
  const db = new ProxyCtor(create(null), {
    get(target, prop) {
      if (typeof prop !== 'string') return undefined
      if (!(prop in tablesSeen)) {
        if (!host.hasTable(prop)) {
          if (prop === 'then' || prop === 'toJSON') return undefined
          throw new TypeErrorCtor(`ctx.db.${prop}: the project has no table ${prop}`)
        }
        tablesSeen[prop] = tableAccess(prop)
      }
      return tablesSeen[prop]
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
  })

  function response(r) {
    return {
      status: r.status,
      statusText: r.statusText,
      ok: r.status >= 200 && r.status < 300,
      url: r.url,
      headers: {
        get: (name) => {
          const v = r.headers[StringCtor(name).toLowerCase()]
          return v === undefined ? null : v
        },
      },
      text: async () => r.body,
      json: async () => parse(r.body),
    }
  }

  const ctx = {
    db,
    user,
    now: () => now,
    log: logger(''),
    call: (name, input) => call(StringCtor(name), input === undefined ? {} : input, false, false),
    mail: {
      send: async (message) => {
        host.mail(stringify(message))
        return { sent: true }
      },
    },
    http: {
      fetch: async (url, init) => response(parse(host.fetch(StringCtor(url), stringify(init || {})))),
    },
  }
  Object.freeze(ctx.mail)
  Object.freeze(ctx.http)
  Object.freeze(ctx)

  async function call(name, input, lenient, checked) {
    const kind = host.kind(name)
    if (kind === 'flow') return flow(name, input, checked)
    const def = host.def(name)
    if (!checked) input = parse(host.input(name, stringify(input), lenient))
    if (!system && typeof def.may === 'function' && !(await def.may(ctx))) {
      throw fail('T3104', `may of ${name} refused ${who()}`)
    }
    if (typeof def.run !== 'function') throw fail('T4001', `${name} has no run function`)
    return def.run(ctx, input)
  }

  async function flow(name, input, checked) {
    if (!checked) input = parse(host.input(name, stringify(input), false))
    let result
    let next = input
    const steps = host.steps(name)
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]
      try {
        result = await call(step, next, true, false)
      } catch (e) {
        host.failedStep(e, step)
        throw e
      }
      next = result !== null && typeof result === 'object' && !isArray(result) ? assign({}, input, result) : input
    }
    return result
  }

  const console = {
    log: logger(''),
    info: logger(''),
    debug: logger(''),
    warn: logger('warn: '),
    error: logger('error: '),
  }

  // A screen (format.md §2.4): its load(ctx, params), then its view(data),
  // answered as the element tree in JSON (functions in props drop out).
  async function screen(file, name, paramsJSON) {
    const def = host.screen(file, name)
    const params = parse(paramsJSON)
    if (typeof def.view !== 'function') throw fail('T4011', `${name} has no view function`)
    const data = typeof def.load === 'function' ? await def.load(ctx, params) : {}
    const tree = await def.view(data === undefined || data === null ? {} : data)
    const text = stringify(tree === undefined ? null : tree)
    return text === undefined ? 'null' : text
  }

  freeze(console)

  return {
    console,
    screen,
    run: async (name, inputJSON) => call(name, parse(inputJSON), false, true),
  }
})
