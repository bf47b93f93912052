/**
 * `npm run demo`: v2bridge on PORT (8787) in front of the built-in NerdGraph simulator on
 * SIM_PORT (8788), both on loopback, plain HTTP allowed.
 */
import { parseConfig } from '../src/config'
import { startServer } from '../src/node'
import { DEMO_KEYS, startSimulatorServer } from '../src/simulator'

const host = process.env['HOST'] || '127.0.0.1'
const simPort = Number(process.env['SIM_PORT'] || 8788)

const simulator = await startSimulatorServer({ port: simPort, hostname: host })
const config = parseConfig({
  ...process.env,
  HOST: host,
  NERDGRAPH_URL: `${simulator.url}/graphql`,
  ALLOW_HTTP: 'true',
})
const bridge = await startServer(config)

console.log(`NerdGraph simulator  ${simulator.url}/graphql
v2bridge             ${bridge.url}/v2

Demo keys:
  ${DEMO_KEYS.all}   sees every demo account
  ${DEMO_KEYS.one}   sees one account

Try:
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' ${bridge.url}/v2/applications.json
`)

const stop = async () => {
  await Promise.allSettled([bridge.close(), simulator.close()])
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
