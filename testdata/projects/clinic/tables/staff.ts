import { table, text, choice } from 'tent'

export const staff = table({
  columns: {
    name: text(),
    email: text({ unique: true }),
    role: choice(['doctor', 'nurse', 'desk'], { default: 'desk' }),
  },
})
