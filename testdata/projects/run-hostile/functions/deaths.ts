import { fn } from 'tent'

// Each of these ended the whole process that ran it before app code ran in
// a worker process (issue 20): a parser's stack overflow, one allocation
// of 8 GB, or a builtin that runs in Go past every limit. In a worker each
// ends that one run with a code (T4004, T4005 or T4013), and the host and
// its next run go on.

const big = (n: number) => BigInt(n)

// goja's parser recurses once per bracket.
export const evalBrackets = fn({
  run: () => (0, eval)('['.repeat(3e5) + ']'.repeat(3e5)),
})

// The same through the Function constructor.
export const functionBrackets = fn({
  run: () => new Function('return ' + '['.repeat(3e5) + ']'.repeat(3e5))(),
})

// goja's parser recurses once per unary minus.
export const evalMinus = fn({
  run: () => eval('-'.repeat(8e6) + '1'),
})

// One shift that asks Go for 8.6 GB at once.
export const shiftHuge = fn({
  run: () => String(big(1) << big(2) ** big(36)),
})

// A power that takes seconds and gigabytes in Go's big integers.
export const powerHuge = fn({
  run: () => String(big(2) ** (big(2) ** big(32))),
})

// A loop of multiplications, each twice as long as the last.
export const multiplyLoop = fn({
  run: () => {
    let x = big(3)
    for (;;) x *= x
  },
})

// A pattern of half a million nested lookaheads.
export const lookaheads = fn({
  run: () => new RegExp('(?=a'.repeat(5e5) + ')'.repeat(5e5)).test('a'),
})

// A normalization that grows 16 million characters eighteen times over.
export const normalizeHuge = fn({
  run: () => '\uFDFA'.repeat(16e6).normalize('NFKD').length,
})

// Writes a row, then ends its worker: the row must not be kept.
export const writeThenDie = fn({
  run: async (ctx) => {
    await ctx.db.notes.insert({ body: 'written before the end' })
    return (0, eval)('['.repeat(3e5) + ']'.repeat(3e5))
  },
})
