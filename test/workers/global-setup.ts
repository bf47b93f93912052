/** Starts the NerdGraph simulator on a free loopback port for the workerd project. */
import type { TestProject } from 'vitest/node'
import { startSimulatorServer } from '../../src/simulator'

export default async function setup(project: TestProject) {
  const server = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
  project.provide('simulatorUrl', server.url)
  return () => server.close()
}
