/** Golden files under test/fixtures/v2: compared byte for byte; `UPDATE_GOLDEN=1` rewrites them. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { expect } from 'vitest'

const dir = new URL('../fixtures/v2/', import.meta.url)

export function expectGolden(name: string, actual: string): void {
  const file = new URL(name, dir)
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) {
    if (process.env['CI']) throw new Error(`golden file ${name} is missing`)
    writeFileSync(file, actual)
  }
  expect(actual).toBe(readFileSync(file, 'utf8'))
}

/** Pretty JSON for readable goldens (key order preserved). */
export const pretty = (text: string) => JSON.stringify(JSON.parse(text), null, 2) + '\n'
