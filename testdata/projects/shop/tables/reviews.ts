import { table, text, int, bool, time, ref } from 'tent'

export const reviews = table({
  columns: {
    product: ref('products'),
    author: ref('users'),
    rating: int(),
    body: text({ optional: true }),
    hidden: bool({ default: false }),
    postedAt: time(),
  },
  indexes: [['product', 'postedAt']],
  may: {
    write: (ctx, row) => ctx.user?.id === row.author,
  },
})
