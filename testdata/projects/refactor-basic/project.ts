import { project } from 'tent'

// A small shop for the refactor tests: every kind of place names something.
export default project({
  name: 'refactor',
  users: 'people',
  removed: ['coupons'],
})
