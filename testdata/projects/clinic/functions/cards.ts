import { fn, ref } from 'tent'
import { signedBy, reasonOf } from '../lib/people'

// A visit as another function fetches it.
export const getVisit = fn({
  input: { visit: ref('visits') },
  run: async (ctx, input) => ctx.db.visits.get(input.visit),
})

// A visit's card: who asks, the visit as getVisit gives it, and the
// doctors and reasons of the patient's visits.
export const visitCard = fn({
  input: { visit: ref('visits') },
  run: async (ctx, input) => {
    const visit = await ctx.call('getVisit', { visit: input.visit })
    const all = await ctx.db.visits.where({ patient: visit.patient })
    const seen = await Promise.all(all.map((v) => ctx.db.staff.get(v.doctor)))
    const doctors = seen.map((s) => ({ staff: s })).filter((x) => x.staff !== null)
    return {
      by: signedBy(ctx),
      reason: visit.reason.trim(),
      doctors: doctors.map((x) => x.staff.email.toLowerCase()),
      reasons: all.map(reasonOf),
    }
  },
})
