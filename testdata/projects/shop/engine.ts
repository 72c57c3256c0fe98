import { engine } from 'tent'

export default engine({
  mail: { from: 'shop@example.com' },
  http: { allow: ['api.payments.example'] },
})
