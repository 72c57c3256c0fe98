import { project } from 'tent'

// A hostile app for the runner's tests: functions that try to take the
// host down, stop it from stopping them, or get round its rules. Each must
// end with T4003, T4004 or T4005 within its bound, and the host must go on
// serving other runs as before.
export default project({ name: 'run-hostile' })
