import { project } from 'tent'

// A small app for the runner's tests of limits, errors and the sandbox.
export default project({ name: 'run-limits' })
