/** Sets the simulator's faults through its admin API (`POST /_sim/faults`; `{}` clears them). */
import { expect } from 'vitest'
import type { FaultConfig, Simulator } from '../../simulator'

export async function setSimFaults(sim: Simulator, config: FaultConfig): Promise<void> {
  const res = await sim.fetch(
    new Request('http://simulator.test/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(config),
    })
  )
  expect(res.status).toBe(200)
}
