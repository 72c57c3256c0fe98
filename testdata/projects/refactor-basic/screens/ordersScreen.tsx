import { screen, Page, Table } from 'tent/ui'

export const ordersScreen = screen({
  path: '/orders',
  title: 'Orders',
  load: async (ctx) => ({ rows: await ctx.db.orders.all({ limit: 50 }) }),
  view: ({ rows }) => (
    <Page title="Orders">
      <Table rows={rows} columns={['buyer', 'total', 'placedAt']} />
    </Page>
  ),
})
