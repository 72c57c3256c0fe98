import { table, text, time } from 'tent'

export const patients = table({
  columns: {
    fullName: text(),
    born: time(),
    ward: text({ optional: true }),
  },
  may: {
    read: (ctx, row) => ctx.user !== null || row.ward === null,
  },
})
