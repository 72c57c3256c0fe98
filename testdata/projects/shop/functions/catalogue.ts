import { fn, text, int, ref, bool } from 'tent'
import { formatMoney } from '../lib/money'

// The active products of a category (or of all categories), cheapest first.
export const listProducts = fn({
  input: {
    category: ref('categories', { optional: true }),
    inStockOnly: bool({ default: false }),
  },
  run: async (ctx, input) => {
    const match = input.category ? { category: input.category, active: true } : { active: true }
    const rows = await ctx.db.products.where(match, { order: 'price' })
    return rows
      .filter((p) => !input.inStockOnly || p.stock > 0)
      .map((p) => ({ id: p.id, name: p.name, price: formatMoney(p.price), stock: p.stock }))
  },
})

// A signed-in customer reviews a product they bought.
export const addReview = fn({
  input: {
    product: ref('products'),
    rating: int(),
    body: text({ optional: true }),
  },
  may: (ctx) => ctx.user !== null,
  run: async (ctx, input) => {
    if (input.rating < 1 || input.rating > 5) {
      throw new Error('a rating is 1 to 5 stars')
    }
    const product = await ctx.db.products.get(input.product)
    if (!product) {
      throw new Error(`no product ${input.product}`)
    }
    return ctx.db.reviews.insert({
      product: product.id,
      author: ctx.user.id,
      rating: input.rating,
      body: input.body ?? null,
      hidden: false,
      postedAt: ctx.now(),
    })
  },
})
