import { project } from 'tent'

// A small app for the runner's tests of ctx.http: its engine allows one
// host, the loopback address where the tests start a local server.
export default project({ name: 'run-http' })
