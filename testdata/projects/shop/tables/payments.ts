import { table, text, money, time, ref, choice } from 'tent'

export const payments = table({
  columns: {
    order: ref('orders'),
    amount: money(),
    provider: choice(['card', 'invoice']),
    reference: text({ private: true }),
    status: choice(['pending', 'captured', 'refunded'], { default: 'pending' }),
    paidAt: time({ optional: true }),
  },
  indexes: [['order']],
  may: {
    read: (ctx) => ctx.user?.role === 'staff' || ctx.user?.role === 'admin',
  },
})
