import { table, text, choice } from 'tent'

export const users = table({
  columns: {
    name: text(),
    passwordHash: text({ private: true }),
    role: choice(['customer', 'staff'], { default: 'customer' }),
  },
  may: {
    read: (ctx, row) => ctx.user?.id === row.id || ctx.user?.role === 'staff',
  },
})

export const notes = table({
  columns: { body: text() },
})
