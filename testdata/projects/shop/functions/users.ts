import { fn, text } from 'tent'
import { users as people } from '../tables'
import { sendWelcome } from '../lib/mailer'

// Signs a new customer up and mails them a welcome.
export const registerUser = fn({
  input: {
    name: text(),
    email: text(),
    address: text({ optional: true, private: true }),
  },
  sends: ['mail'],
  run: async (ctx, input) => {
    const taken = await ctx.db.users.where({ email: input.email }, { limit: 1 })
    if (taken.length > 0) {
      throw new Error(`${input.email} already has an account`)
    }
    ctx.log('new row in users with', Object.keys(people.columns).length, 'columns')
    const user = await ctx.db.users.insert({
      name: input.name,
      email: input.email,
      passwordHash: '',
      role: 'customer',
      address: input.address ?? null,
      joinedAt: ctx.now(),
    })
    await sendWelcome(ctx, user.email, user.name)
    return { id: user.id, name: user.name }
  },
})
