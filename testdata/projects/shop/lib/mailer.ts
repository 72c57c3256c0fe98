// Mail the shop sends to its people. Every helper takes the run's ctx, so a
// function that uses one sends mail and must declare `sends: ['mail']`.

export interface MailCtx {
  mail: { send(message: { to: string; subject: string; text: string }): Promise<unknown> }
  log(...args: unknown[]): void
}

export async function sendToPerson(ctx: MailCtx, to: string, subject: string, text: string): Promise<void> {
  ctx.log('mail to', to, subject)
  await ctx.mail.send({ to, subject, text: `${text}\n\n-- The shop` })
}

export async function sendWelcome(ctx: MailCtx, to: string, name: string): Promise<void> {
  await sendToPerson(ctx, to, 'Welcome to the shop', `Hello ${name}, your account is ready.`)
}
