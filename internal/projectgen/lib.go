package projectgen

// The fixed files of a generated project: its lib helpers, project.ts,
// engine.ts and .gitignore.

const libMoney = `// Money is kept as integer cents; these helpers only add and format.

export function formatMoney(cents: number, currency: string = 'EUR'): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const whole = Math.floor(abs / 100)
  const rest = String(abs % 100).padStart(2, '0')
  return sign + whole + '.' + rest + ' ' + currency
}

export function sumCents(values: number[]): number {
  let total = 0
  for (const v of values) {
    total += v
  }
  return total
}
`

const libText = `// Text helpers for lists and screens.

export function truncate(s: string, max: number): string {
  if (s.length <= max) {
    return s
  }
  return s.slice(0, Math.max(0, max - 1)) + '…'
}

export function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}
`

const libValidate = `// Checks of input that the column types alone do not make.

export function requireText(value: string, field: string): void {
  if (value.trim() === '') {
    throw new Error(field + ' must not be empty')
  }
}

export function requireNonNegative(value: number, field: string): void {
  if (value < 0) {
    throw new Error(field + ' must not be negative')
  }
}
`

const libNotify = `// Mail to people. The helper takes the run's ctx, so a function that calls
// it sends mail and declares sends: ['mail'].

export interface MailCtx {
  mail: { send(message: { to: string; subject: string; text: string }): Promise<unknown> }
  log(...args: unknown[]): void
}

export async function notify(ctx: MailCtx, to: string, subject: string, text: string): Promise<void> {
  ctx.log('mail to', to, subject)
  await ctx.mail.send({ to, subject, text: text + '\n\n-- sent by the app' })
}
`

const libIndex = `// The helpers screens use, in one place.
export { formatMoney, sumCents } from './money'
export { truncate } from './text'
`

const projectTS = `import { project } from 'tent'

export default project({
  name: 'generated',
  users: 'accounts',
  removed: ['legacyImports'],
})
`

const engineTS = `import { engine } from 'tent'

export default engine({
  mail: { from: 'app@example.com' },
  http: { allow: ['api.example.com'] },
})
`

const gitignore = `.tent/
node_modules/
dist/
`
