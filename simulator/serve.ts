/** @module simulator/serve — `npm run simulator`: the NerdGraph simulator on HOST:SIM_PORT. */
import { startSimulatorServer } from './node-server'

const hostname = process.env['HOST'] || '127.0.0.1'
const port = Number(process.env['SIM_PORT'] || 8788)

const server = await startSimulatorServer({ port, hostname })
console.log(`NerdGraph simulator on ${server.url}/graphql`)

const stop = async () => {
  await server.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
