import { screen, Page, Heading, Text, List, Form, Field, Button } from 'tent/ui'
import { formatMoney } from '../lib/money'
import { stars, shortDate } from '../lib/format'

// One product with its visible reviews, and a form to add one.
export const productScreen = screen({
  path: '/products/:id',
  title: 'Product',
  load: async (ctx, params) => {
    const product = await ctx.db.products.get(params.id)
    const reviews = await ctx.db.reviews.where({ product: params.id, hidden: false }, { order: 'postedAt' })
    return { product, reviews }
  },
  view: ({ product, reviews }) => (
    <Page title={product.name}>
      <Heading>{product.name}</Heading>
      <Text>{product.description ?? ''}</Text>
      <Text>{formatMoney(product.price)}</Text>
      <List>
        {reviews.map((r) => (
          <Text>
            {stars(r.rating)} {shortDate(r.postedAt)} {r.body ?? ''}
          </Text>
        ))}
      </List>
      <Form action="addReview">
        <Field name="product" type="hidden" value={product.id} />
        <Field name="rating" label="Stars (1-5)" type="number" />
        <Field name="body" label="Your review" />
        <Button type="submit">Post review</Button>
      </Form>
    </Page>
  ),
})
