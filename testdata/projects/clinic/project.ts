import { project } from 'tent'

// A small clinic: patients, the staff who see them, and their visits.
export default project({ name: 'clinic', users: 'staff' })
