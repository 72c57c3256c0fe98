import { table, text } from 'tent'

export const orders = table({
  columns: {
    note: text(),
    memo: text({ was: 'note' }),
  },
  removed: ['note'],
})
