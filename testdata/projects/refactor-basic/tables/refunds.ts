import { table, money, ref } from 'tent'

export const refunds = table({
  columns: {
    order: ref('orders', { optional: true }),
    amount: money(),
  },
})
