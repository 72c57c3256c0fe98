import { table, text, int, ref } from 'tent'

export const categories = table({
  columns: {
    name: text(),
    slug: text({ unique: true }),
    parent: ref('categories', { optional: true }),
    position: int({ default: 0 }),
  },
  indexes: [['slug'], ['parent', 'position']],
})
