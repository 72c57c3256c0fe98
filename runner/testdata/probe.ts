import { fn } from 'tent'

// Written into a copy of shop by the runner's tests: every ctx.db method,
// and who the run is as.
export const probeDB = fn({
  run: async (ctx) => {
    const all = await ctx.db.categories.all({ order: '-position', limit: 2 })
    const coffee = await ctx.db.categories.where({ parent: 'c1' })
    const got = await ctx.db.categories.get('c1')
    const missing = await ctx.db.categories.get('nope')
    const added = await ctx.db.categories.insert({ name: 'Tools', slug: 'tools' })
    const changed = await ctx.db.categories.update(added.id, { position: 7 })
    const removed = await ctx.db.categories.remove('c3')
    const after = await ctx.db.categories.all({ order: 'name' })
    return {
      all: all.map((c) => c.id),
      coffee: coffee.map((c) => c.id),
      got: got.name,
      missing,
      added,
      changed: changed.position,
      removed: removed.id,
      after: after.map((c) => c.name),
    }
  },
})

export const whoami = fn({
  run: (ctx) => (ctx.user === null ? null : ctx.user.system ? 'system' : ctx.user.id),
})

export const myOrders = fn({
  run: async (ctx) => (await ctx.db.orders.all()).map((o) => o.id),
})

export const badWrite = fn({
  run: async (ctx) => ctx.db.categories.insert({ name: 'X', slug: 'x', position: 1.5 }),
})
