import { engine } from 'tent'

export default engine({
  mail: { from: 'app@example.com' },
  http: { allow: ['127.0.0.1'] },
})
