import { table, text, choice } from 'tent'

export const users = table({
  columns: {
    name: text(),
    email: text({ unique: true }),
    role: choice(['member', 'staff'], { default: 'member' }),
    secretNote: text({ optional: true, private: true }),
  },
})
