import { table, text, money, ref } from 'tent'

// Notes people leave; a note's address is private.
export const notes = table({
  columns: {
    author: ref('users'),
    body: text(),
    amount: money(),
    homeAddress: text({ private: true }),
  },
})
