import { table, money, time, json, ref, choice } from 'tent'

export const orders = table({
  columns: {
    buyer: ref('people'),
    total: money(),
    status: choice(['new', 'paid'], { default: 'new' }),
    placedAt: time({ was: 'created' }),
    meta: json({ optional: true }),
  },
  indexes: [['buyer', 'placedAt'], ['buyer'], ['status']],
  removed: ['couponCode'],
  may: {
    read: (ctx, row) => ctx.user?.id === row.buyer,
  },
})
