import { project } from 'tent'

// Screens for shot's tests: one that uses every component of 'tent/ui',
// and the ones that must fail or must not reach outside the page.
export default project({
  name: 'screens',
  users: 'users',
})
