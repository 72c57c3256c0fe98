import { table, text, money, time, ref, choice } from 'tent'

export const orders = table({
  columns: {
    buyer: ref('users'),
    total: money(),
    note: text({ optional: true, private: true }),
    shipTo: text({ private: true }),
    status: choice(['new', 'paid', 'shipped', 'cancelled'], { default: 'new' }),
    placedAt: time({ was: 'created' }),
    shippedAt: time({ optional: true }),
  },
  indexes: [['buyer', 'placedAt'], ['status']],
  removed: ['couponCode'],
  may: {
    read: (ctx, row) => ctx.user?.id === row.buyer || ctx.user?.role === 'staff',
    write: (ctx, row) => ctx.user?.id === row.buyer || ctx.user?.role === 'staff',
  },
})
