import { screen, Page, Section, Heading, Text, Table, Stat, Form, Field, Button, Badge } from 'tent/ui'
import { formatMoney } from '../lib/money'
import { shortDate } from '../lib/format'

// One order with its lines, and a form to cancel it while it can be.
export const orderScreen = screen({
  path: '/orders/:id',
  title: 'Order',
  load: async (ctx, params) => {
    const order = await ctx.db.orders.get(params.id)
    const items = await ctx.db.orderItems.where({ order: params.id })
    const buyer = await ctx.db.users.get(order.buyer)
    return { order, items, buyer }
  },
  view: ({ order, items, buyer }) => (
    <Page title={`Order ${order.id}`}>
      <Section>
        <Heading>Order {order.id}</Heading>
        <Badge tone={order.status === 'cancelled' ? 'danger' : 'info'}>{order.status}</Badge>
        <Text>
          Placed by {buyer.name} on {shortDate(order.placedAt)}
        </Text>
        <Stat label="Total" value={formatMoney(order.total)} />
      </Section>
      <Section title="Lines">
        <Table rows={items} columns={['product', 'quantity', 'unitPrice']} />
      </Section>
      {order.status === 'new' || order.status === 'paid' ? (
        <Form action="cancelOrder">
          <Field name="order" type="hidden" value={order.id} />
          <Field name="reason" label="Why cancel?" />
          <Button type="submit">Cancel order</Button>
        </Form>
      ) : null}
    </Page>
  ),
})
