import { flow, ref } from 'tent'

export const fulfilment = flow({
  input: { order: ref('orders') },
  steps: ['shipOrder', 'askForReview'],
})
