import { table, text, time } from 'tent'

// The people who buy; project.ts names this table as its users.
export const people = table({
  columns: {
    name: text(),
    email: text({ unique: true }),
    nickname: text({ optional: true, was: ['handle', 'alias'] }),
    joinedAt: time(),
  },
  indexes: [['email']],
})
