// Small formatting helpers shared by functions and screens.

export function shortDate(iso: string): string {
  return iso.slice(0, 10)
}

export function stars(rating: number): string {
  const full = Math.max(0, Math.min(5, Math.round(rating)))
  return '*'.repeat(full) + '.'.repeat(5 - full)
}

export function plural(n: number, word: string): string {
  return n === 1 ? `1 ${word}` : `${n} ${word}s`
}
