import { project } from 'tent'

// A project in conflict on purpose: names defined and removed (T2006), and
// `was` names of live things (T2007). A rename keeps each conflict as it is.
export default project({
  name: 'conflict',
  users: 'orders',
  removed: ['orders', 'legacy'],
})
