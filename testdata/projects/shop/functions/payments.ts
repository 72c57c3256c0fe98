import { fn, ref } from 'tent'

const paymentsApi = 'https://api.payments.example/v1'

// Charges the buyer's card for an order through the payment provider.
export const chargeCard = fn({
  input: { order: ref('orders') },
  sends: ['http'],
  run: async (ctx, input) => {
    const order = await ctx.db.orders.get(input.order)
    const res = await ctx.http.fetch(`${paymentsApi}/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: order.total, currency: 'EUR', order: order.id }),
    })
    const charge = await res.json()
    const payment = await ctx.db.payments.insert({
      order: order.id,
      amount: order.total,
      provider: 'card',
      reference: charge.id,
      status: 'captured',
      paidAt: ctx.now(),
    })
    await ctx.db.orders.update(order.id, { status: 'paid' })
    return { order: order.id, payment: payment.id }
  },
})

// Gives the money of an order back through the payment provider.
export const refundPayment = fn({
  input: { order: ref('orders') },
  sends: ['http'],
  may: (ctx) => ctx.user?.role === 'staff' || ctx.user?.role === 'admin',
  run: async (ctx, input) => {
    const [payment] = await ctx.db.payments.where({ order: input.order, status: 'captured' }, { limit: 1 })
    if (!payment) {
      return { refunded: false }
    }
    await ctx.http.fetch(`${paymentsApi}/charges/${payment.reference}/refund`, { method: 'POST' })
    await ctx.db.payments.update(payment.id, { status: 'refunded' })
    return { refunded: true, amount: payment.amount }
  },
})
