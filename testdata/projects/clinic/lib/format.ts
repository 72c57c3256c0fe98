// How the clinic writes people and times.

// label names a patient with the year they were born.
export function label(patient) {
  return `${patient.fullName} (${patient.born.slice(0, 4)})`
}

export function day(iso: string): string {
  return iso.slice(0, 10)
}
