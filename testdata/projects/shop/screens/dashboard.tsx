import { screen, Page, Section, Heading, Stat, List, Text, Link } from 'tent/ui'
import { catalogue } from '../tables'
import { formatMoney, sumCents } from '../lib/money'
import { stars } from '../lib/format'

// The staff's overview: money taken, what sells, what people say.
export const dashboardScreen = screen({
  path: '/admin',
  title: 'Dashboard',
  load: async (ctx) => {
    const paid = await ctx.db.orders.where({ status: 'paid' })
    const products = await ctx.db.products.all({ order: 'stock', limit: 5 })
    const reviews = await ctx.db.reviews.all({ order: 'postedAt', limit: 10 })
    return {
      takings: sumCents(paid.map((o) => o.total)),
      orderCount: paid.length,
      lowStock: products,
      reviews,
      productFields: Object.keys(catalogue.columns).length,
    }
  },
  view: ({ takings, orderCount, lowStock, reviews, productFields }) => (
    <Page title="Dashboard">
      <Section>
        <Stat label="Taken" value={formatMoney(takings)} />
        <Stat label="Paid orders" value={orderCount} />
        <Stat label="Product fields" value={productFields} />
      </Section>
      <Section>
        <Heading>Low stock</Heading>
        <List>
          {lowStock.map((p) => (
            <Link to={`/products/${p.id}`}>
              {p.name}: {p.stock} left
            </Link>
          ))}
        </List>
      </Section>
      <Section>
        <Heading>Latest reviews</Heading>
        <List>
          {reviews.map((r) => (
            <Text>
              {stars(r.rating)} {r.body ?? ''}
            </Text>
          ))}
        </List>
      </Section>
    </Page>
  ),
})
