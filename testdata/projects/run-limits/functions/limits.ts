import { fn, int } from 'tent'
import { mustBePositive } from '../lib/check'

// Never ends: the time limit stops it.
export const spin = fn({
  run: async (ctx) => {
    await ctx.db.notes.insert({ body: 'before the loop' })
    while (true) {}
  },
})

// Allocates without end: the memory limit stops it.
export const bomb = fn({
  run: () => {
    const heap = []
    while (true) {
      heap.push(new Array(100000).fill(heap.length))
    }
  },
})

// Answers a promise that nothing will ever settle.
export const hang = fn({
  run: () => new Promise(() => {}),
})

// Throws from a helper in lib/.
export const positive = fn({
  input: { n: int() },
  run: async (ctx, input) => {
    ctx.log('checking', input.n)
    return mustBePositive(input.n)
  },
})

// Answers what app code can see of the host.
export const globals = fn({
  run: () => ({
    require: typeof globalThis.require,
    process: typeof globalThis.process,
    fetch: typeof globalThis.fetch,
    setTimeout: typeof globalThis.setTimeout,
    console: typeof globalThis.console,
  }),
})
