import { table, int, money, ref } from 'tent'

// One line of an order: the price is copied from the product when the
// order is placed, so later price changes do not rewrite old orders.
export const orderItems = table({
  columns: {
    order: ref('orders'),
    product: ref('products'),
    quantity: int(),
    unitPrice: money({ was: ['price', 'itemPrice'] }),
  },
  indexes: [['order']],
})
