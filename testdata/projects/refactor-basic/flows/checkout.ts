import { flow, ref, json } from 'tent'

export const checkout = flow({
  input: { buyer: ref('people'), items: json() },
  steps: ['placeOrder', 'chargeCard'],
})
