import { fn, ref, json, text, choice } from 'tent'
import { orders } from '../tables/orders'
import { formatMoney, lineTotal, sumCents } from '../lib/money'

// Checks that every item is in stock and takes it off the shelf.
export const reserveStock = fn({
  input: { items: json() },
  run: async (ctx, input) => {
    for (const item of input.items) {
      const product = await ctx.db.products.get(item.product)
      if (!product || !product.active) {
        throw new Error(`product ${item.product} is not for sale`)
      }
      if (product.stock < item.quantity) {
        throw new Error(`only ${product.stock} of ${product.name} left`)
      }
      await ctx.db.products.update(product.id, { stock: product.stock - item.quantity })
    }
    return { reserved: input.items.length }
  },
})

// Writes the order and its lines, and mails the buyer a confirmation.
export const placeOrder = fn({
  input: {
    buyer: ref('users'),
    items: json(),
    shipTo: text(),
    note: text({ optional: true, private: true }),
  },
  sends: ['mail'],
  may: (ctx) => ctx.user !== null,
  run: async (ctx, input) => {
    const buyer = await ctx.db.users.get(input.buyer)
    const order = await ctx.db.orders.insert({
      buyer: input.buyer,
      total: 0,
      shipTo: input.shipTo,
      note: input.note ?? null,
      status: 'new',
      placedAt: ctx.now(),
    })
    const lines = []
    for (const item of input.items) {
      const product = await ctx.db.products.get(item.product)
      await ctx.db.orderItems.insert({
        order: order.id,
        product: product.id,
        quantity: item.quantity,
        unitPrice: product.price,
      })
      lines.push(lineTotal(item.quantity, product.price))
    }
    const total = sumCents(lines)
    await ctx.db.orders.update(order.id, { total })
    await ctx.mail.send({
      to: buyer.email,
      subject: `Order ${order.id} placed`,
      text: `Thank you, ${buyer.name}. Your order comes to ${formatMoney(total)}.`,
    })
    return { order: order.id, total }
  },
})

// Marks a paid order as shipped and tells the buyer.
export const shipOrder = fn({
  input: { order: ref('orders') },
  sends: ['mail'],
  may: (ctx) => ctx.user?.role === 'staff',
  run: async (ctx, input) => {
    const order = await ctx.db.orders.get(input.order)
    if (order.status !== 'paid') {
      throw new Error(`order ${order.id} is ${order.status}, not paid`)
    }
    await ctx.db.orders.update(order.id, { status: 'shipped', shippedAt: ctx.now() })
    await ctx.call('notifyBuyer', { order: order.id, message: 'Your order is on its way.' })
    return { order: order.id, status: 'shipped' }
  },
})

// Cancels an order that has not shipped: refunds it and tells the buyer.
export const cancelOrder = fn({
  input: { order: ref('orders'), reason: text({ optional: true }) },
  sends: ['mail', 'http'],
  run: async (ctx, input) => {
    const order = await ctx.db.orders.get(input.order)
    if (order.status === 'shipped') {
      throw new Error('a shipped order cannot be cancelled')
    }
    if (order.status === 'paid') {
      await ctx.call('refundPayment', { order: order.id })
    }
    await ctx.db.orders.update(order.id, { status: 'cancelled' })
    await ctx.call('notifyBuyer', {
      order: order.id,
      message: `Your order was cancelled${input.reason ? ': ' + input.reason : '.'}`,
    })
    return { order: order.id, status: 'cancelled' }
  },
})

// The orders of one status as CSV, without the private columns.
export const exportOrders = fn({
  input: { status: choice(['new', 'paid', 'shipped', 'cancelled']) },
  may: (ctx) => ctx.user?.role === 'admin',
  run: async (ctx, input) => {
    const rows = await ctx.db.orders.where({ status: input.status }, { order: 'placedAt' })
    const fields = ['id', ...Object.keys(orders.columns).filter((c) => c !== 'note' && c !== 'shipTo')]
    const lines = rows.map((row) => fields.map((f) => String(row[f] ?? '')).join(','))
    return [fields.join(','), ...lines].join('\n')
  },
})
