// A helper that throws, so a stack crosses two files.

export function mustBePositive(n: number): number {
  if (n <= 0) {
    throw new RangeError(`${n} is not positive`)
  }
  return n
}
