/**
 * The suite under a shifted clock (`faketime -f +400d npx vitest --run`, docs/development.md). libfaketime
 * shifts a process through `LD_PRELOAD`, and two programs the tests start hang under it at start-up:
 * workerd (its tcmalloc takes a lock that libfaketime's own start-up needs again, seen as a stack in
 * `SpinLock::SlowLock` under `_dl_exception_create_format`) and Chromium. They run on the real clock
 * instead, without the preload; the Worker's tests get the shift inside workerd from
 * test/workers/shifted-clock.ts, with the offset measured here.
 */
import { execFileSync } from 'node:child_process'

/** Whether this process runs under libfaketime. */
export const underFaketime = /faketime/i.test(process.env['LD_PRELOAD'] ?? '')

/** `env` without libfaketime's preload and settings, for a child that must run on the real clock. */
export function realClockEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(env))
    if (name !== 'LD_PRELOAD' && !name.startsWith('FAKETIME')) out[name] = value
  return out
}

const unitMs: Record<string, number> = {
  '': 1e3,
  s: 1e3,
  m: 60e3,
  h: 3600e3,
  d: 86400e3,
  y: 365 * 86400e3,
}

/** How far this process's clock is ahead of the real one, in ms (0 without libfaketime). A relative
 * `FAKETIME` (`+400d`, `-2h`, `+90`: libfaketime's README) is exact; any other is measured against
 * `date` run without the preload, from the moment it has answered, so the result errs ahead, never
 * behind (a Worker whose clock lags the simulator's would miss what was written just before). */
export function clockOffsetMs(): number {
  if (!underFaketime) return 0
  const relative = /^([+-]\d+(?:\.\d+)?)([smhdy]?)$/.exec(process.env['FAKETIME']?.trim() ?? '')
  if (relative) return Number(relative[1]) * unitMs[relative[2]!]!
  const real = Number(execFileSync('date', ['+%s%3N'], { env: realClockEnv() }).toString().trim())
  return Date.now() - real
}
