import { screen, Page, Heading, Table, Text, Link, Badge } from 'tent/ui'
import { formatMoney } from '../lib/money'

// The catalogue of one category.
export const productsScreen = screen({
  path: '/categories/:slug',
  title: 'Products',
  load: async (ctx, params) => {
    const [category] = await ctx.db.categories.where({ slug: params.slug }, { limit: 1 })
    const products = await ctx.db.products.where({ category: category.id, active: true }, { order: 'name' })
    return { category, products }
  },
  view: ({ category, products }) => (
    <Page title={category.name}>
      <Heading>{category.name}</Heading>
      <Text>{products.length} products</Text>
      <Table
        rows={products.map((p) => ({ ...p, price: formatMoney(p.price) }))}
        columns={['name', 'price', 'stock']}
      />
      {products
        .filter((p) => p.stock === 0)
        .map((p) => (
          <Badge tone="warning">{p.name} is sold out</Badge>
        ))}
      <Link to="/">Back to the shop</Link>
    </Page>
  ),
})
