import { project } from 'tent'

// The shop: people buy products and review them. Coupons were dropped in
// favour of plain price changes, so their table is removed on purpose.
export default project({
  name: 'shop',
  users: 'users',
  removed: ['coupons'],
})
