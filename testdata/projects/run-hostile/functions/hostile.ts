import { fn, text } from 'tent'

// Every case here is an attack on the host that runs it. The runner's
// tests run each in a host that keeps serving other runs, and want
// T4003, T4004 or T4005 within the limits plus a small margin.

// Calls Array.prototype[method] on an array-like object of a huge length.
export const arrayLike = fn({
  input: { method: text() },
  run: (ctx, input) => {
    const f = Array.prototype[input.method]
    return f.call({ length: 2 ** 32 - 1 }, (x) => x, 0)
  },
})

// Calls Array.prototype[method] on an array-like of the longest length.
export const longestArrayLike = fn({
  input: { method: text() },
  run: (ctx, input) => Array.prototype[input.method].call({ length: 2 ** 53 - 1 }, 1),
})

// Spreads what Array.prototype[method] iterates over an array-like of a huge length.
export const iterate = fn({
  input: { method: text() },
  run: (ctx, input) => [...Array.prototype[input.method].call({ length: 2 ** 32 - 1 })].length,
})

// Calls a method on a real, empty array whose length is huge.
export const sparse = fn({
  input: { method: text() },
  run: (ctx, input) => {
    const a = []
    a.length = 2 ** 32 - 1
    return a[input.method]((x) => x, 0)
  },
})

// An array-like whose length grows once it has been read.
export const growingLength = fn({
  run: () => {
    let reads = 0
    const o = {
      get length() {
        reads++
        return reads > 1 ? 2 ** 32 - 1 : 1
      },
    }
    return Array.prototype.sort.call(o)
  },
})

// A text of four million characters, made by doubling (quick even where
// the machine is slow).
function long() {
  let s = 'x'
  while (s.length < 1 << 22) s += s
  return s
}

export const fillHuge = fn({ run: () => new Array(2e8).fill(0).length })
export const repeatHuge = fn({ run: () => 'x'.repeat(2 ** 31).length })
export const padHuge = fn({ run: () => ''.padStart(2 ** 31, 'ab').length })
export const replaceHuge = fn({ run: () => 'x'.repeat(1 << 20).replaceAll('x', 'y'.repeat(1 << 20)).length })
export const splitHuge = fn({ run: () => long().split('').length })
export const spreadSparse = fn({
  run: () => {
    const a = []
    a.length = 2 ** 32 - 1
    return [...a].length
  },
})
export const fromArrayLike = fn({ run: () => Array.from({ length: 2 ** 32 - 1 }).length })
export const rawHuge = fn({ run: () => String.raw({ raw: { length: 2 ** 32 - 1 } }).length })
export const applyHuge = fn({ run: () => Math.max.apply(null, { length: 2 ** 32 - 1 }) })
export const typedHuge = fn({ run: () => new Uint8Array(2 ** 31).length })
export const concatHuge = fn({
  run: () => {
    const a = []
    a.length = 2 ** 32 - 2
    return [1].concat(a).length
  },
})
export const flatHuge = fn({
  run: () => {
    const a = []
    a.length = 2 ** 31
    return [[a]].flat(2).length
  },
})
export const keysOfText = fn({ run: () => Object.keys(long()).length })

// JSON.parse of a text of eight million numbers, and of one nested too deep.
export const parseHuge = fn({
  run: () => {
    let s = '1,'
    while (s.length < 12_000_000) s += s
    return JSON.parse('[' + s + '1]').length
  },
})
export const parseDeep = fn({ run: () => JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) })
export const stringifySparse = fn({
  run: () => {
    const a = []
    a.length = 2 ** 32 - 1
    return JSON.stringify(a).length
  },
})

// Catastrophic backtracking (the lookahead keeps it off Go's linear regexp).
export const backtrack = fn({ run: () => /^(?=a)(a+)+$/.test('a'.repeat(40) + 'b') })

// Recursion without end.
export const recurse = fn({
  run: () => {
    const f = (n) => f(n + 1) + 1
    return f(0)
  },
})

// A string that doubles until memory runs out.
export const doubling = fn({
  run: () => {
    let s = 'x'
    for (;;) s += s
  },
})

// Results that are app code when read.
export const getterResult = fn({
  run: () => ({
    get x() {
      for (;;) {}
    },
  }),
})
export const toJSONResult = fn({
  run: () => ({
    toJSON() {
      for (;;) {}
    },
  }),
})
export const proxyResult = fn({
  run: () =>
    new Proxy(
      {},
      {
        ownKeys() {
          for (;;) {}
        },
      },
    ),
})
export const deepResult = fn({
  run: () => {
    let a = []
    for (let i = 0; i < 100_000; i++) a = [a]
    return a
  },
})
export const cyclicResult = fn({
  run: () => {
    const a = { name: 'a' }
    a.self = a
    return a
  },
})

// Thrown values and log arguments that are app code when read.
export const throwGetter = fn({
  run: () => {
    throw {
      get message() {
        for (;;) {}
      },
    }
  },
})
export const throwToString = fn({
  run: () => {
    throw {
      toString() {
        for (;;) {}
      },
    }
  },
})
export const logGetter = fn({
  run: (ctx) => {
    ctx.log({
      get x() {
        for (;;) {}
      },
    })
    return 1
  },
})

// A Proxy whose every trap throws (issue 13 item 22), or one revoked, so
// that any look at it throws: as the result, as the value thrown, as an
// argument of a log line. `as` picks which; `kind` picks the Proxy.
const throwing = (kind) => {
  const trap = () => {
    throw new Error('a trap threw')
  }
  if (kind === 'revoked') {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  }
  if (kind === 'function') {
    return new Proxy(function () {}, { get: trap, getPrototypeOf: trap, ownKeys: trap, apply: trap, has: trap, getOwnPropertyDescriptor: trap })
  }
  if (kind === 'error') {
    return new Proxy(new Error('inside'), { get: trap, getPrototypeOf: trap, ownKeys: trap, has: trap, getOwnPropertyDescriptor: trap })
  }
  if (kind === 'nested') {
    return { ok: [1, 2, { deep: new Proxy({}, { ownKeys: trap, get: trap, getOwnPropertyDescriptor: trap }) }] }
  }
  return new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap, has: trap, getOwnPropertyDescriptor: trap })
}
export const proxyThrows = fn({
  input: { as: text(), kind: text() },
  run: (ctx, input) => {
    const p = throwing(input.kind)
    if (input.as === 'thrown') {
      throw p
    }
    if (input.as === 'logged') {
      ctx.log('a proxy:', p)
      return 1
    }
    return p
  },
})

// Forges the code of a refusal.
export const forgeCode = fn({
  run: () => {
    const e = new Error('the person said no')
    e.tentCode = 'T3103'
    throw e
  },
})

// Replaces the globals the host would use to make its answer.
export const replaceJSON = fn({
  run: () => {
    JSON.stringify = () => 'not JSON'
    JSON.parse = () => ({ forged: true })
    Array.prototype.join = () => 'joined'
    return { a: [1, 2], b: 'ok' }
  },
})

// Tries every way round the users table's read rule.
export const bypass = fn({
  run: async (ctx) => {
    const tried = []
    const fake = async () => []
    const attempt = (name, f, changed) => {
      try {
        f()
      } catch (e) {
        // refused loudly, or silently: what counts is whether it changed
      }
      tried.push(name + ': ' + (changed() ? 'changed' : 'kept'))
    }
    attempt('role', () => { ctx.user.role = 'staff' }, () => ctx.user.role === 'staff')
    attempt('id', () => { ctx.user.id = 'u1' }, () => ctx.user.id === 'u1')
    attempt('table', () => { ctx.db.users = { all: fake } }, () => ctx.db.users.all === fake)
    attempt('all', () => { ctx.db.users.all = fake }, () => ctx.db.users.all === fake)
    attempt('log', () => { ctx.log = null }, () => ctx.log === null)
    await ctx.db.users.all() // the table's rules are loaded before the globals change
    Object.prototype['users.read'] = null
    Object.prototype.users = null
    JSON.parse = () => [{ id: 'u1' }, { id: 'u2' }]
    Array.isArray = () => false
    Object.assign = () => ({})
    const seen = (await ctx.db.users.all()).map((u) => u.id)
    return { tried, seen, role: ctx.user.role }
  },
})
