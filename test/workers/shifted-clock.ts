/**
 * A setup file of the Worker tests: under `faketime` workerd runs on the real clock
 * (test/helpers/real-clock.ts), so `Date` in this isolate, the Worker's and the tests', is moved by the
 * offset global-setup.ts measured, and the Worker sees the simulator's shifted time. Without faketime
 * the offset is 0 and nothing changes.
 */
import { inject } from 'vitest'

const offset = inject('clockOffsetMs')
if (offset) {
  const RealDate = Date
  class ShiftedDate extends RealDate {
    constructor(...args: [] | [string | number | Date] | number[]) {
      if (args.length === 0) super(RealDate.now() + offset)
      else super(...(args as [number]))
    }
    static override now() {
      return RealDate.now() + offset
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor
}
