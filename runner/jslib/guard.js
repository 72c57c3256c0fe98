// The runner's guards over the builtins of a run's runtime. The runner
// evaluates this expression in each fresh runtime before any app code and
// calls it with `host`: its Go side (stop, isArray, stringify, parse) and
// the bounds. It answers nothing; what it installs, and the originals it
// wraps, are out of the app's reach (kept in this closure).
//
// Why: goja's builtins run in Go, where the runtime's interrupt (the time
// and memory limits) is not looked at, and many of them work through an
// array's or an array-like's `length`, whatever it holds: one call such as
// Array.prototype.sort.call({ length: 2 ** 32 - 1 }) would allocate tens of
// gigabytes at once and kill the whole process, which no recover catches.
// So each builtin that does work in proportion to a length, a count or a
// size is wrapped: the length is read once (app getters run here, in
// JavaScript, under the limits), checked against the bound, and pinned, so
// the builtin cannot be given a larger one later. Past a bound the run is
// stopped as if it had passed its memory limit (the work would need more
// than a run may hold) or its time limit (it would only scan).
(function (host) {
  'use strict'

  const maxElements = host.maxElements
  const maxChars = host.maxChars
  const maxBytes = host.maxBytes
  const stop = host.stop
  const isArray = host.isArray // a real Array, not a Proxy of one
  const hostIndexed = host.indexed
  // indexed is the length of a text, a String or a typed array; -1 for others.
  const indexed = (o) => (typeof o === 'string' ? o.length : o !== null && typeof o === 'object' ? hostIndexed(o) : -1)

  const apply = Reflect.apply
  const construct = Reflect.construct
  const rget = Reflect.get
  const rhas = Reflect.has
  const defineProperty = Object.defineProperty
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor
  const objectKeys = Object.keys
  const create = Object.create
  const ProxyCtor = Proxy
  const StringCtor = String
  const NumberCtor = Number
  const MathTrunc = Math.trunc
  const iteratorSymbol = Symbol.iterator
  const AP = Array.prototype
  const SP = String.prototype

  function tooMuch(kind, what, n, bound) {
    stop(kind, what + ' would work on ' + n + ' elements, more than the ' + bound + ' a run may in one call')
  }

  // toLength is the spec's ToLength, reading app code where the value has it.
  function toLength(v) {
    let n = NumberCtor(v)
    if (n !== n || n <= 0) return 0
    if (n === Infinity) return 2 ** 53 - 1
    n = MathTrunc(n)
    return n > 2 ** 53 - 1 ? 2 ** 53 - 1 : n
  }

  // pin answers what a builtin may be given as `this` or an argument of
  // array-like o: a real array as it is (its length is a plain value), any
  // other object behind a Proxy that answers the length read here, and
  // whose reads run as JavaScript (so the limits reach them).
  function pin(o, kind, what) {
    if (o === null || o === undefined) return o
    const t = typeof o
    if (t === 'string') {
      if (o.length > maxElements) tooMuch(kind, what, o.length, maxElements)
      return o
    }
    if (t !== 'object' && t !== 'function') return o
    if (isArray(o)) {
      if (o.length > maxElements) tooMuch(kind, what, o.length, maxElements)
      return o
    }
    const n = toLength(o.length)
    if (n > maxElements) tooMuch(kind, what, n, maxElements)
    return new ProxyCtor(o, {
      get(target, key, receiver) {
        return key === 'length' ? n : rget(target, key, receiver)
      },
      has(target, key) {
        return rhas(target, key)
      },
    })
  }

  // replace puts wrapper in the place of obj[name], as the original was.
  function replace(obj, name, wrapper) {
    const d = getOwnPropertyDescriptor(obj, name)
    defineProperty(wrapper, 'name', { value: typeof name === 'string' ? name : '[Symbol.iterator]' })
    defineProperty(obj, name, { value: wrapper, writable: d.writable, enumerable: d.enumerable, configurable: d.configurable })
  }

  // Array methods that walk `this` to its length: scanning ones cost time,
  // the others hold or build as many values.
  const scans = ['every', 'some', 'forEach', 'find', 'findIndex', 'findLast', 'findLastIndex',
    'includes', 'indexOf', 'lastIndexOf', 'reduce', 'reduceRight']
  const builds = ['copyWithin', 'fill', 'filter', 'map', 'reverse', 'slice', 'sort', 'splice',
    'toReversed', 'toSorted', 'toSpliced', 'with', 'unshift', 'shift']
  function guardMethod(name, kind) {
    const orig = AP[name]
    if (typeof orig !== 'function') return
    replace(AP, name, {
      [name](...args) {
        const p = pin(this, kind, 'Array.prototype.' + name)
        const r = apply(orig, p, args)
        return r === p ? this : r
      },
    }[name])
  }
  for (let i = 0; i < scans.length; i++) guardMethod(scans[i], 'time')
  for (let i = 0; i < builds.length; i++) guardMethod(builds[i], 'memory')

  // concat: the total of this and every argument it spreads.
  const origConcat = AP.concat
  const spreadable = Symbol.isConcatSpreadable
  replace(AP, 'concat', {
    concat(...args) {
      let total = 0
      const self = pin(this, 'memory', 'Array.prototype.concat')
      total += isArray(self) ? self.length : 1
      for (let i = 0; i < args.length; i++) {
        const a = args[i]
        if (a !== null && typeof a === 'object' && (a[spreadable] === undefined ? isArray(a) : !!a[spreadable])) {
          args[i] = pin(a, 'memory', 'Array.prototype.concat')
          total += toLength(args[i].length)
        } else total++
        if (total > maxElements) tooMuch('memory', 'Array.prototype.concat', total, maxElements)
      }
      const r = apply(origConcat, self, args)
      return r
    },
  }.concat)

  // flat and flatMap: the elements of every array they would open, counted first.
  function flatCount(o, depth, budget) {
    let n = toLength(o.length)
    if (n > budget) return n
    let total = n
    if (depth < 1) return total
    for (let i = 0; i < n; i++) {
      const e = o[i]
      if (isArray(e)) {
        total += flatCount(e, depth - 1, budget - total)
        if (total > budget) return total
      }
    }
    return total
  }
  const origFlat = AP.flat
  replace(AP, 'flat', {
    flat(depth) {
      const d = depth === undefined ? 1 : toLength(depth)
      const p = pin(this, 'memory', 'Array.prototype.flat')
      const n = flatCount(p, d, maxElements)
      if (n > maxElements) tooMuch('memory', 'Array.prototype.flat', n, maxElements)
      return apply(origFlat, p, [d])
    },
  }.flat)
  guardMethod('flatMap', 'memory')

  // join and toLocaleString: the parts made as strings here, counted,
  // then joined by the original over an array of strings.
  const origJoin = AP.join
  const joining = []
  function joined(self, sep, local) {
    const p = pin(self, 'memory', local ? 'Array.prototype.toLocaleString' : 'Array.prototype.join')
    for (let j = 0; j < joining.length; j++) if (joining[j] === self) return ''
    const n = toLength(p.length)
    const parts = new Array(n)
    let total = n > 0 ? (n - 1) * sep.length : 0
    if (total > maxChars) stop('memory', 'Array.prototype.join would make a text longer than ' + maxChars + ' characters')
    joining[joining.length] = self
    try {
      for (let i = 0; i < n; i++) {
        const e = p[i]
        const s = e === undefined || e === null ? '' : local ? StringCtor(e.toLocaleString()) : StringCtor(e)
        parts[i] = s
        total += s.length
        if (total > maxChars) stop('memory', 'Array.prototype.join would make a text longer than ' + maxChars + ' characters')
      }
    } finally {
      joining.length--
    }
    return apply(origJoin, parts, [sep])
  }
  replace(AP, 'join', {
    join(sep) {
      return joined(this, sep === undefined ? ',' : StringCtor(sep), false)
    },
  }.join)
  replace(AP, 'toLocaleString', {
    toLocaleString() {
      return joined(this, ',', true)
    },
  }.toLocaleString)

  // Iterators: over a long array or text, one that runs as JavaScript, so
  // that a spread or Array.from of it is stopped by the limits.
  function slowIterator(o, kind) {
    let i = 0
    return {
      next() {
        const n = toLength(o.length)
        if (i >= n) return { value: undefined, done: true }
        const k = i++
        return { value: kind === 'keys' ? k : kind === 'entries' ? [k, o[k]] : o[k], done: false }
      },
      [iteratorSymbol]() {
        return this
      },
    }
  }
  function guardIterator(proto, name, kind) {
    const orig = proto[name]
    if (typeof orig !== 'function') return
    replace(proto, name, {
      [name]() {
        if ((typeof this === 'string' || isArray(this)) && this.length <= maxElements) return apply(orig, this, [])
        if (this === null || this === undefined) return apply(orig, this, [])
        return slowIterator(typeof this === 'string' ? this : Object(this), kind)
      },
    }[name])
  }
  const arrayValues = AP.values
  guardIterator(AP, 'keys', 'keys')
  guardIterator(AP, 'entries', 'entries')
  guardIterator(AP, 'values', 'values')
  if (AP[iteratorSymbol] === arrayValues) {
    defineProperty(AP, iteratorSymbol, { value: AP.values, writable: true, enumerable: false, configurable: true })
  }
  const origStringIterator = SP[iteratorSymbol]
  defineProperty(SP, iteratorSymbol, {
    value: function () {
      const s = StringCtor(this)
      if (s.length > maxElements) tooMuch('memory', 'iterating a text', s.length, maxElements)
      return apply(origStringIterator, s, [])
    },
    writable: true, enumerable: false, configurable: true,
  })

  // String.raw walks its strings' raw list to its length.
  const origRaw = String.raw
  replace(String, 'raw', {
    raw(strings, ...subs) {
      if (strings !== null && strings !== undefined && typeof strings === 'object') {
        strings = { raw: pin(strings.raw, 'memory', 'String.raw') }
      }
      return apply(origRaw, String, [strings, ...subs])
    },
  }.raw)

  // Array.from over an array-like: its length checked and pinned.
  const origFrom = Array.from
  replace(Array, 'from', {
    from(items, ...rest) {
      if (items !== null && items !== undefined && items[iteratorSymbol] === undefined) {
        items = pin(items, 'memory', 'Array.from')
      }
      return apply(origFrom, this, [items, ...rest])
    },
  }.from)

  // apply and construct with an array-like of arguments.
  const FP = Function.prototype
  const origApply = FP.apply
  replace(FP, 'apply', {
    apply(thisArg, args) {
      return apply(origApply, this, [thisArg, args === null || args === undefined ? args : pin(args, 'memory', 'Function.prototype.apply')])
    },
  }.apply)
  replace(Reflect, 'apply', {
    apply(f, thisArg, args) {
      return apply(f, thisArg, pin(args, 'memory', 'Reflect.apply'))
    },
  }.apply)
  replace(Reflect, 'construct', {
    construct(f, args, ...rest) {
      return construct(f, pin(args, 'memory', 'Reflect.construct'), ...rest)
    },
  }.construct)

  // Texts: what a method would make, counted before it makes it.
  function text(self, what) {
    if (self === null || self === undefined) throw new TypeError(what + ' called on null or undefined')
    return StringCtor(self)
  }
  function tooLong(what, n) {
    stop('memory', what + ' would make a text of ' + n + ' characters, more than the ' + maxChars + ' a run may in one call')
  }
  const origRepeat = SP.repeat
  replace(SP, 'repeat', {
    repeat(count) {
      const s = text(this, 'String.prototype.repeat')
      let n = NumberCtor(count)
      n = n !== n ? 0 : MathTrunc(n)
      if (n > 0 && s.length * n > maxChars) tooLong('String.prototype.repeat', s.length * n)
      return apply(origRepeat, s, [n])
    },
  }.repeat)
  for (const name of ['padStart', 'padEnd']) {
    const orig = SP[name]
    replace(SP, name, {
      [name](maxLength, fill) {
        const s = text(this, 'String.prototype.' + name)
        const n = toLength(maxLength)
        if (n > maxChars) tooLong('String.prototype.' + name, n)
        return apply(orig, s, [n, fill === undefined ? fill : StringCtor(fill)])
      },
    }[name])
  }
  const origStrConcat = SP.concat
  replace(SP, 'concat', {
    concat(...args) {
      let s = text(this, 'String.prototype.concat')
      let total = s.length
      for (let i = 0; i < args.length; i++) {
        args[i] = StringCtor(args[i])
        total += args[i].length
        if (total > maxChars) tooLong('String.prototype.concat', total)
      }
      return apply(origStrConcat, s, args)
    },
  }.concat)
  const origSplit = SP.split
  replace(SP, 'split', {
    split(sep, limit) {
      if (sep !== null && sep !== undefined && typeof sep === 'object' && sep[Symbol.split] !== undefined) {
        const s = StringCtor(this)
        if (s.length > maxElements) tooMuch('memory', 'String.prototype.split', s.length, maxElements)
        return apply(origSplit, s, [sep, limit])
      }
      const s = text(this, 'String.prototype.split')
      const lim = limit === undefined ? 2 ** 32 - 1 : limit >>> 0
      const sp = StringCtor(sep)
      const most = sp.length === 0 ? s.length : MathTrunc(s.length / sp.length) + 1
      if (most > maxElements && lim > maxElements) tooMuch('memory', 'String.prototype.split', most, maxElements)
      return apply(origSplit, s, [sp, lim])
    },
  }.split)

  // replace and replaceAll: a replacement text becomes a function that
  // expands its $ patterns as the builtin would, so each match is
  // JavaScript (the limits reach it) and what it adds is counted.
  const indexOf = SP.indexOf
  const slice = SP.slice
  function substitute(rep, args) {
    // args: match, captures..., position, string[, groups]
    let end = args.length - 1
    let groups = args[end]
    if (typeof groups === 'string') groups = undefined
    else end--
    const str = args[end]
    const pos = args[end - 1]
    const match = args[0]
    const m = end - 2 // the number of captures
    const parts = []
    let n = 0
    let from = 0
    let total = 0
    const add = (s) => {
      parts[n++] = s
      total += s.length
      if (total > maxChars) tooLong('String.prototype.replace', total)
    }
    for (;;) {
      const i = apply(indexOf, rep, ['$', from])
      if (i < 0 || i + 1 >= rep.length) break
      add(apply(slice, rep, [from, i]))
      const d = rep[i + 1]
      from = i + 2
      if (d === '$') add('$')
      else if (d === '&') add(match)
      else if (d === '`') add(apply(slice, str, [0, pos]))
      else if (d === "'") add(apply(slice, str, [pos + match.length]))
      else if (d >= '0' && d <= '9') {
        const two = i + 2 < rep.length && rep[i + 2] >= '0' && rep[i + 2] <= '9' ? NumberCtor(d + rep[i + 2]) : -1
        if (two >= 1 && two <= m) {
          add(args[two] === undefined ? '' : args[two])
          from = i + 3
        } else if (NumberCtor(d) >= 1 && NumberCtor(d) <= m) {
          add(args[NumberCtor(d)] === undefined ? '' : args[NumberCtor(d)])
        } else add('$' + d)
      } else if (d === '<' && groups !== undefined) {
        const close = apply(indexOf, rep, ['>', i + 2])
        if (close < 0) add('$<')
        else {
          const v = groups[apply(slice, rep, [i + 2, close])]
          add(v === undefined ? '' : StringCtor(v))
          from = close + 1
        }
      } else add('$' + d)
    }
    if (from === 0) return rep
    add(apply(slice, rep, [from]))
    return apply(origJoin, parts, [''])
  }
  // replaceAll of a text pattern, made here: goja's finds every match in
  // Go before it calls a replacement, which for a long text is seconds
  // out of the limits' reach.
  function replaceAllText(s, pat, counted) {
    const parts = []
    let n = 0
    let last = 0
    let i = apply(indexOf, s, [pat, 0])
    while (i >= 0) {
      parts[n++] = apply(slice, s, [last, i])
      parts[n++] = counted(pat, i, s)
      last = i + pat.length
      if (pat.length === 0) {
        if (i >= s.length) break
        i++
      } else i = apply(indexOf, s, [pat, last])
    }
    parts[n++] = apply(slice, s, [last])
    return apply(origJoin, parts, [''])
  }
  for (const name of ['replace', 'replaceAll']) {
    const orig = SP[name]
    replace(SP, name, {
      [name](pattern, replacement) {
        const s = text(this, 'String.prototype.' + name)
        let total = s.length
        const fn = typeof replacement === 'function' ? replacement : null
        const rep = fn === null ? StringCtor(replacement) : ''
        const counted = function (...args) {
          const r = fn === null ? substitute(rep, args) : StringCtor(apply(fn, undefined, args))
          total += r.length
          if (total > maxChars) tooLong('String.prototype.' + name, total)
          return r
        }
        if (name === 'replaceAll' && (pattern === null || pattern === undefined || (typeof pattern !== 'object' && typeof pattern !== 'function'))) {
          return replaceAllText(s, StringCtor(pattern), counted)
        }
        return apply(orig, s, [pattern, counted])
      },
    }[name])
  }

  // A regular expression's match runs in Go; goja cuts one that
  // backtracks past a second (answering no match): a match that took that
  // long stops the run instead, so that it never answers a wrong result.
  const RP = RegExp.prototype
  const origExec = RP.exec
  const clock = host.clock
  replace(RP, 'exec', {
    exec(s) {
      const t0 = clock()
      const r = apply(origExec, this, [s])
      if (clock() - t0 >= host.regexpTimeout) stop('time', 'a regular expression backtracked for ' + host.regexpTimeout + ' ms')
      return r
    },
  }.exec)

  // Buffers and typed arrays: their size checked before they are made.
  const typed = ['ArrayBuffer', 'SharedArrayBuffer', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
    'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']
  // Each is guarded on first use: goja makes its builtins when first
  // touched, and most runs never touch these.
  const typedOriginals = create(null)
  function guardTyped(name) {
    const C = typedOriginals[name]
    if (typeof C !== 'function') return C
    const size = C.BYTES_PER_ELEMENT === undefined ? 1 : C.BYTES_PER_ELEMENT
    const guarded = new ProxyCtor(C, {
      construct(target, args, newTarget) {
        const a = args[0]
        let n = 0
        if (a !== null && typeof a === 'object') {
          if (!(a instanceof ArrayBufferCtor())) {
            args[0] = pin(a, 'memory', name)
            n = toLength(args[0].length)
          }
        } else n = toLength(a)
        if (n * size > maxBytes) stop('memory', name + ' of ' + n * size + ' bytes is more than the ' + maxBytes + ' a run may make in one call')
        return construct(target, args, newTarget === guarded ? target : newTarget)
      },
    })
    defineProperty(C.prototype, 'constructor', { value: guarded, writable: true, enumerable: false, configurable: true })
    return guarded
  }
  const guardedTyped = create(null)
  function typedCtor(name) {
    if (!(name in guardedTyped)) guardedTyped[name] = guardTyped(name)
    return guardedTyped[name]
  }
  const ArrayBufferCtor = () => typedCtor('ArrayBuffer')
  for (const name of typed) {
    if (!(name in globalThis)) continue
    const d = getOwnPropertyDescriptor(globalThis, name)
    typedOriginals[name] = d.value
    defineProperty(globalThis, name, {
      get() {
        const g = typedCtor(name)
        defineProperty(globalThis, name, { value: g, writable: true, enumerable: d.enumerable, configurable: true })
        return g
      },
      set(v) {
        defineProperty(globalThis, name, { value: v, writable: true, enumerable: d.enumerable, configurable: true })
      },
      enumerable: d.enumerable,
      configurable: true,
    })
  }

  // Object's key lists of a long text (each index is a key).
  for (const name of ['keys', 'values', 'entries', 'getOwnPropertyNames', 'getOwnPropertyDescriptors']) {
    const orig = Object[name]
    replace(Object, name, {
      [name](o) {
        const n = indexed(o)
        if (n > maxElements) tooMuch('memory', 'Object.' + name, n, maxElements)
        return apply(orig, Object, [o])
      },
    }[name])
  }

  // Promises: the prelude awaits the app's may rules; a replaced then or
  // constructor of Promise.prototype must not answer for them.
  for (const name of ['then', 'constructor']) {
    const d = getOwnPropertyDescriptor(Promise.prototype, name)
    defineProperty(Promise.prototype, name, { value: d.value, writable: false, enumerable: d.enumerable, configurable: false })
  }

  // Object.assign from a long text copies each of its characters.
  const origAssign = Object.assign
  replace(Object, 'assign', {
    assign(target, ...sources) {
      for (let i = 0; i < sources.length; i++) {
        const n = indexed(sources[i])
        if (n > maxElements) tooMuch('memory', 'Object.assign', n, maxElements)
      }
      return apply(origAssign, Object, [target, ...sources])
    },
  }.assign)

  // JSON: both ways on the Go side, which bounds the work and the depth.
  const parse = host.parse
  const stringify = host.stringify
  function internalize(holder, key, reviver) {
    const v = holder[key]
    if (v !== null && typeof v === 'object') {
      if (isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const r = internalize(v, StringCtor(i), reviver)
          if (r === undefined) delete v[i]
          else defineProperty(v, i, { value: r, writable: true, enumerable: true, configurable: true })
        }
      } else {
        const keys = objectKeys(v)
        for (let i = 0; i < keys.length; i++) {
          const r = internalize(v, keys[i], reviver)
          if (r === undefined) delete v[keys[i]]
          else defineProperty(v, keys[i], { value: r, writable: true, enumerable: true, configurable: true })
        }
      }
    }
    return apply(reviver, holder, [key, v])
  }
  replace(JSON, 'parse', {
    parse(textValue, reviver) {
      const v = parse(StringCtor(textValue))
      if (typeof reviver !== 'function') return v
      return internalize({ '': v }, '', reviver)
    },
  }.parse)
  replace(JSON, 'stringify', {
    stringify(value, replacer, space) {
      return stringify(value, replacer, space)
    },
  }.stringify)
})
