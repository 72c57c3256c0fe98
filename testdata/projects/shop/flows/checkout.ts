import { flow, ref, json, text } from 'tent'

// From a basket to a paid order: stock first, so nobody pays for what is gone.
export const checkout = flow({
  input: { buyer: ref('users'), items: json(), shipTo: text() },
  steps: ['reserveStock', 'placeOrder', 'chargeCard'],
})
