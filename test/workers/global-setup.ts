/** Starts the NerdGraph simulator on a free loopback port for the workerd project, and writes the
 * Worker's static assets (scripts/assets.ts) that wrangler.toml's `[assets]` binds as `ASSETS`. */
import type { TestProject } from 'vitest/node'
import { startSimulatorServer } from '../../simulator'
import { writeAssets } from '../../scripts/assets'

export default async function setup(project: TestProject) {
  writeAssets()
  const server = await startSimulatorServer({ port: 0, hostname: '127.0.0.1' })
  project.provide('simulatorUrl', server.url)
  return () => server.close()
}
