import { table, text, money, ref } from 'tent'

// Products were called items until the catalog got categories.
export const products = table({
  columns: {
    title: text(),
    price: money(),
    category: ref('categories'),
  },
  was: 'items',
  indexes: [['category']],
})

// The neighbour of products in this file.
export const categories = table({
  columns: {
    label: text(),
  },
})
