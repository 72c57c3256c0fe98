import { fn, int } from 'tent'

// A well-behaved function: the host answers it right after each attack.
export const sum = fn({
  input: { a: int(), b: int() },
  run: async (ctx, input) => {
    const users = await ctx.db.users.all()
    return { sum: input.a + input.b, users: users.length, sorted: [3, 1, 2].sort(), joined: ['a', 'b'].join('-') }
  },
})

// What a run sees of its clock and random numbers.
export const luck = fn({
  run: (ctx) => ({ now: Date.now(), date: new Date().toISOString(), random: [Math.random(), Math.random()], ctxNow: ctx.now() }),
})

// The ids of the users rows the run may read.
export const whoCanISee = fn({
  run: async (ctx) => (await ctx.db.users.all()).map((u) => u.id),
})

// Returns a private value under another key, in an array and in a message.
export const leak = fn({
  input: { fail: int({ optional: true }) },
  run: async (ctx, input) => {
    const u = await ctx.db.users.get('u1')
    if (input.fail) throw new Error('the hash is ' + u.passwordHash)
    return { copy: u.passwordHash, list: [u.passwordHash], name: u.name }
  },
})
