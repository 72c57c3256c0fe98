import { table, text } from 'tent'

export const legacy = table({
  columns: {
    code: text(),
  },
  was: 'orders',
})
