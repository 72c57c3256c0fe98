// Money is kept as integer cents everywhere; these helpers only format and add.

export function formatMoney(cents: number, currency: string = 'EUR'): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const whole = Math.floor(abs / 100)
  const rest = String(abs % 100).padStart(2, '0')
  return `${sign}${whole}.${rest} ${currency}`
}

export function sumCents(values: number[]): number {
  let total = 0
  for (const v of values) {
    total += v
  }
  return total
}

export function lineTotal(quantity: number, unitPrice: number): number {
  return quantity * unitPrice
}
