// Who asks, and what a visit is for.

// signedBy names who asks: the first word of a staff member's name.
export function signedBy(ctx) {
  return ctx.user === null || ctx.user.system ? 'the clinic' : ctx.user.name.split(' ')[0]
}

// reasonOf is a visit's reason, trimmed; map gives it each visit.
export function reasonOf(visit) {
  return visit.reason.trim()
}
