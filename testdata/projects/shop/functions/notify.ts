import { fn, ref, text } from 'tent'
import { sendToPerson } from '../lib/mailer'
import { plural } from '../lib/format'

// Mails the buyer of an order a short message about it.
export const notifyBuyer = fn({
  input: { order: ref('orders'), message: text() },
  sends: ['mail'],
  run: async (ctx, input) => {
    const order = await ctx.db.orders.get(input.order)
    const buyer = await ctx.db.users.get(order.buyer)
    await sendToPerson(ctx, buyer.email, `About your order ${order.id}`, input.message)
    return { order: order.id, to: buyer.id }
  },
})

// After shipping, asks the buyer to review what they bought.
export const askForReview = fn({
  input: { order: ref('orders') },
  sends: ['mail'],
  run: async (ctx, input) => {
    const order = await ctx.db.orders.get(input.order)
    const buyer = await ctx.db.users.get(order.buyer)
    const items = await ctx.db.orderItems.where({ order: order.id })
    await sendToPerson(
      ctx,
      buyer.email,
      'How did we do?',
      `You bought ${plural(items.length, 'product')} from us. A short review helps other customers.`,
    )
    return { asked: buyer.id }
  },
})
