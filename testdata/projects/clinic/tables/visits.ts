import { table, text, time, ref, choice } from 'tent'

export const visits = table({
  columns: {
    patient: ref('patients'),
    doctor: ref('staff'),
    at: time(),
    reason: text(),
    status: choice(['booked', 'seen', 'cancelled'], { default: 'booked' }),
  },
  indexes: [['patient', 'at']],
})
