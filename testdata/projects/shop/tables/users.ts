import { table, text, time, choice } from 'tent'

// The people of the shop: customers, and the staff who run it.
export const users = table({
  columns: {
    name: text(),
    email: text({ unique: true }),
    passwordHash: text({ private: true }),
    role: choice(['customer', 'staff', 'admin'], { default: 'customer' }),
    address: text({ optional: true, private: true }),
    joinedAt: time({ was: 'createdAt' }),
  },
  indexes: [['email']],
  may: {
    read: (ctx, row) => ctx.user?.id === row.id || ctx.user?.role === 'staff',
    write: (ctx, row) => ctx.user?.id === row.id,
  },
})
