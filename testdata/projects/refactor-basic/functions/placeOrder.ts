import { fn, ref, json } from 'tent'
import { orders, people } from '../tables'

// Places an order for a buyer.
export const placeOrder = fn({
  input: { buyer: ref('people'), items: json() },
  run: async (ctx, input) => {
    const order = await ctx.db.orders.insert({ buyer: input.buyer, total: 0, placedAt: ctx.now() })
    return { order, schema: { orders, people } }
  },
})

// The local `orders` here shadows the import: a rename leaves it alone.
export function countOrders(orders: unknown[]): number {
  return orders.length
}

export const describe = () => orders
