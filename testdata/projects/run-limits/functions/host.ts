import { fn } from 'tent'
import { readFileSync } from 'fs'

// Tries to reach the host's file system: it must not build.
export const readSecrets = fn({
  run: () => readFileSync('/etc/passwd', 'utf8'),
})
