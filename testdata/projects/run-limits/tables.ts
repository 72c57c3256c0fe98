import { table, text } from 'tent'

export const notes = table({
  columns: { body: text() },
})
