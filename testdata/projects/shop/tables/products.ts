import { table, text, int, money, bool, ref } from 'tent'

// Products were called items until the catalogue got categories.
export const products = table({
  columns: {
    name: text(),
    description: text({ optional: true }),
    category: ref('categories'),
    price: money(),
    costPrice: money({ private: true }),
    stock: int({ default: 0 }),
    active: bool({ default: true }),
  },
  was: 'items',
  indexes: [['category', 'active']],
  removed: ['legacySku'],
  may: {
    write: (ctx) => ctx.user?.role === 'staff' || ctx.user?.role === 'admin',
  },
})
