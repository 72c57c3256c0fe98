import { fn, ref, text, time } from 'tent'
import { label, day } from '../lib/format'

// Books a visit for a patient with a doctor, and says who it is for.
export const bookVisit = fn({
  input: { patient: ref('patients'), doctor: ref('staff'), at: time(), reason: text() },
  may: (ctx) => ctx.user !== null,
  run: async (ctx, input) => {
    const patient = await ctx.db.patients.get(input.patient)
    if (!patient) {
      throw new Error(`no patient ${input.patient}`)
    }
    const visit = await ctx.db.visits.insert({
      patient: patient.id,
      doctor: input.doctor,
      at: input.at,
      reason: input.reason,
      status: 'booked',
    })
    return { visit: visit.id, for: label(patient), on: day(visit.at) }
  },
})

// Marks a visit as seen and notes the ward the patient goes to.
export const seeVisit = fn({
  input: { visit: ref('visits'), ward: text({ optional: true }) },
  run: async (ctx, input) => {
    const visit = await ctx.db.visits.update(input.visit, { status: 'seen' })
    const patch = { ward: input.ward ?? null }
    const patient = await ctx.db.patients.update(visit.patient, patch)
    return { patient: patient.fullName, ward: patient.ward }
  },
})

// The visits of one patient, newest first.
export const patientVisits = fn({
  input: { patient: ref('patients') },
  run: async (ctx, input) => {
    const list = await ctx.db.visits.where({ patient: input.patient }, { order: '-at' })
    return list.map(({ at, reason, status }) => ({ on: day(at), reason, status }))
  },
})
