// The runner's side of one run, inside the JavaScript runtime. The runner
// evaluates this expression and calls it with `host`, its Go primitives
// (which pass rows as JSON text), the run's user (null for nobody,
// { system: true } for the system) and the run's fixed time. It answers
// { run, fail }: run(name, inputJSON) starts a function or a flow and
// answers a promise; fail(code, message) makes the Error the runner throws
// for a refusal with a stable code (T3104, T4001, T4002, T3103), or with
// none ("") for an error of the app's own making, such as a bad row.
(function (host, user, now) {
  'use strict'

  function fail(code, message) {
    const e = new Error(message)
    if (code) e.tentCode = code
    return e
  }

  const system = user !== null && user.system === true

  function who() {
    if (user === null) return 'nobody'
    if (system) return 'the system'
    return 'user ' + user.id
  }

  function show(v) {
    if (typeof v === 'string') return v
    if (v instanceof Error) return v.stack || String(v)
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return String(v)
    try {
      const s = JSON.stringify(v)
      return s === undefined ? String(v) : s
    } catch (e) {
      return String(v)
    }
  }

  function logger(prefix) {
    return function () {
      const parts = []
      for (let i = 0; i < arguments.length; i++) parts.push(show(arguments[i]))
      host.log(prefix + parts.join(' '))
    }
  }

  // May rules of tables, loaded once per run, and only those a table has.
  const mays = {}
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
    for (const row of rows) {
      if (limit > 0 && out.length >= limit) break
      if (await allowed(table, 'read', row)) out.push(row)
    }
    return out
  }

  function options(opts) {
    if (opts === undefined || opts === null) return {}
    if (typeof opts !== 'object') throw new TypeError('options are an object such as { limit: 10, order: "-placedAt" }')
    return opts
  }

  async function select(table, match, opts) {
    opts = options(opts)
    const limit = opts.limit === undefined ? 0 : opts.limit
    // Rows a read rule hides must not use up the limit: filter, then cut.
    const sqlLimit = system || rule(table, 'read') === null ? limit : 0
    const rows = JSON.parse(host.select(table, JSON.stringify(match), opts.order === undefined ? '' : String(opts.order), sqlLimit))
    return readable(table, rows, limit)
  }

  function tableAccess(table) {
    return {
      all: (opts) => select(table, {}, opts),
      where: (match, opts) => {
        if (match === null || typeof match !== 'object') throw new TypeError(`ctx.db.${table}.where wants an object of column values`)
        return select(table, match, opts)
      },
      get: async (id) => {
        const s = host.get(table, String(id))
        if (s === null) return null
        const row = JSON.parse(s)
        return (await allowed(table, 'read', row)) ? row : null
      },
      insert: async (row) => {
        const r = JSON.parse(host.prepareInsert(table, JSON.stringify(row)))
        await writable(table, r, 'a new row')
        host.insert(table, JSON.stringify(r))
        return r
      },
      update: async (id, patch) => {
        const pair = JSON.parse(host.prepareUpdate(table, String(id), JSON.stringify(patch)))
        await writable(table, pair[0], 'row ' + id)
        await writable(table, pair[1], 'row ' + id + ' as updated')
        host.put(table, JSON.stringify(pair[1]))
        return pair[1]
      },
      remove: async (id) => {
        const s = host.get(table, String(id))
        if (s === null) throw new Error(`${table} has no row ${id}`)
        const old = JSON.parse(s)
        await writable(table, old, 'row ' + id)
        host.remove(table, String(id))
        return old
      },
    }
  }

  const db = new Proxy({}, {
    get(target, prop) {
      if (typeof prop !== 'string') return undefined
      if (!(prop in target)) {
        if (!host.hasTable(prop)) {
          if (prop === 'then' || prop === 'toJSON') return undefined
          throw new TypeError(`ctx.db.${prop}: the project has no table ${prop}`)
        }
        target[prop] = tableAccess(prop)
      }
      return target[prop]
    },
  })

  function response(r) {
    return {
      status: r.status,
      statusText: r.statusText,
      ok: r.status >= 200 && r.status < 300,
      url: r.url,
      headers: {
        get: (name) => {
          const v = r.headers[String(name).toLowerCase()]
          return v === undefined ? null : v
        },
      },
      text: async () => r.body,
      json: async () => JSON.parse(r.body),
    }
  }

  const ctx = {
    db,
    user,
    now: () => now,
    log: logger(''),
    call: (name, input) => call(String(name), input === undefined ? {} : input, false, false),
    mail: {
      send: async (message) => {
        host.mail(JSON.stringify(message))
        return { sent: true }
      },
    },
    http: {
      fetch: async (url, init) => response(JSON.parse(host.fetch(String(url), JSON.stringify(init || {})))),
    },
  }
  Object.freeze(ctx.mail)
  Object.freeze(ctx.http)
  Object.freeze(ctx)

  async function call(name, input, lenient, checked) {
    const kind = host.kind(name)
    if (kind === 'flow') return flow(name, input, checked)
    const def = host.def(name)
    if (!checked) input = JSON.parse(host.input(name, JSON.stringify(input), lenient))
    if (!system && typeof def.may === 'function' && !(await def.may(ctx))) {
      throw fail('T3104', `may of ${name} refused ${who()}`)
    }
    if (typeof def.run !== 'function') throw fail('T4001', `${name} has no run function`)
    return def.run(ctx, input)
  }

  async function flow(name, input, checked) {
    if (!checked) input = JSON.parse(host.input(name, JSON.stringify(input), false))
    let result
    let next = input
    for (const step of host.steps(name)) {
      try {
        result = await call(step, next, true, false)
      } catch (e) {
        if (e !== null && typeof e === 'object' && e.tentStep === undefined) e.tentStep = step
        throw e
      }
      next = result !== null && typeof result === 'object' && !Array.isArray(result) ? Object.assign({}, input, result) : input
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
    const params = JSON.parse(paramsJSON)
    if (typeof def.view !== 'function') throw fail('T4011', `${name} has no view function`)
    const data = typeof def.load === 'function' ? await def.load(ctx, params) : {}
    const tree = await def.view(data === undefined || data === null ? {} : data)
    const text = JSON.stringify(tree === undefined ? null : tree)
    return text === undefined ? 'null' : text
  }

  return {
    fail,
    console,
    screen,
    run: async (name, inputJSON) => {
      const result = await call(name, JSON.parse(inputJSON), false, true)
      const text = JSON.stringify(result)
      return text === undefined ? 'null' : text
    },
  }
})
