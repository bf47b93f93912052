/**
 * @module cli/demo
 * The demo (`npm run demo`, `v2bridge demo`): v2bridge on PORT (8787) in front of the built-in
 * NerdGraph simulator on SIM_PORT (8788), both on loopback, plain HTTP allowed.
 */
import { parseConfig } from '../config'
import { reportOption, startServer } from '../node'
import { DEMO_KEYS, startSimulatorServer } from '../simulator'

export async function startDemo(env: Record<string, string | undefined>) {
  const host = env['HOST'] || '127.0.0.1'
  const simulator = await startSimulatorServer({
    port: Number(env['SIM_PORT'] || 8788),
    hostname: host,
  })
  const config = parseConfig({
    ...env,
    HOST: host,
    NERDGRAPH_URL: `${simulator.url}/graphql`,
    ALLOW_HTTP: 'true',
  })
  const bridge = await startServer(config, undefined, reportOption(env['REPORT_FILE']))
  const banner = `NerdGraph simulator  ${simulator.url}/graphql
v2bridge             ${bridge.url}/v2

Demo keys:
  ${DEMO_KEYS.all}   sees every demo account
  ${DEMO_KEYS.one}   sees one account

Try:
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' ${bridge.url}/v2/applications.json
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' -H 'X-V2bridge-Explain: 1' '${bridge.url}/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher'
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' ${bridge.url}/v2bridge/report.json
  npx v2bridge doctor --key ${DEMO_KEYS.all} --nerdgraph-url ${simulator.url}/graphql
`
  return {
    bridge,
    simulator,
    banner,
    close: async () => {
      await Promise.allSettled([bridge.close(), simulator.close()])
    },
  }
}
