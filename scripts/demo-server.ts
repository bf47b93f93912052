/**
 * @module scripts/demo-server
 * The demo (`npm run demo`, `v2bridge demo`): v2bridge on PORT (8787) in front of the built-in
 * NerdGraph simulator on SIM_PORT (8788), both on loopback, plain HTTP allowed. The simulator also
 * serves the stand-in for the REST API v2 endpoints New Relic keeps (`/v2`,
 * simulator/v2/standin.ts): V2_URL points at it, so forwarded alerts calls answer offline too.
 */
import { parseNodeConfig } from '../src/node/config'
import { reportOption, startServer } from '../src/node'
import { keyFingerprint } from '../src/core/identity'
import type { RequestLog } from '../src/core/request-log'
import { DEMO_KEYS, DEMO_LEGACY_KEYS, startSimulatorServer } from '../simulator'

/** KEY_MAP of the demo: both legacy demo keys stand for the all-accounts user key. */
async function demoKeyMap(): Promise<string> {
  const entries = await Promise.all(
    Object.values(DEMO_LEGACY_KEYS).map(async (k) => [await keyFingerprint(k), DEMO_KEYS.all])
  )
  return JSON.stringify(Object.fromEntries(entries))
}

/** The banner's line for V2_COMPARE (src/compare/): what the caller gets, what is compared. */
function compareLine(mode: 'v2' | 'bridge' | undefined): string {
  if (mode === 'v2')
    return "v2 (shadow): callers get the stand-in's answers; v2bridge's are compared after"
  if (mode === 'bridge')
    return "bridge (canary): callers get v2bridge's answers; the stand-in's are compared after"
  return 'off (V2_COMPARE=v2 or bridge npm run demo; results in the report)'
}

/** Thrown when a port of the demo is taken: one line that names the setting to change. */
export class DemoPortTaken extends Error {
  override name = 'DemoPortTaken'
}

function portTaken(err: unknown, setting: string, port: number, what: string): unknown {
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return err
  return new DemoPortTaken(
    `port ${port} is taken, so ${what} cannot listen: set ${setting} to a free port (e.g. ${setting}=${port + 10} npm run demo)`
  )
}

/** `log`: where request lines go (JSON on stdout unless given). */
export async function startDemo(env: Record<string, string | undefined>, log?: RequestLog) {
  const host = env['HOST'] || '127.0.0.1'
  const simPort = Number(env['SIM_PORT'] || 8788)
  const simulator = await startSimulatorServer({ port: simPort, hostname: host }).catch(
    (err: unknown) => Promise.reject(portTaken(err, 'SIM_PORT', simPort, 'the simulator'))
  )
  const config = parseNodeConfig({
    ...env,
    HOST: host,
    NERDGRAPH_URL: `${simulator.url}/graphql`,
    V2_URL: `${simulator.url}/v2`,
    ALLOW_HTTP: 'true',
    KEY_MAP: env['KEY_MAP'] || (await demoKeyMap()),
  })
  // The explorer starts authorized with the all-accounts demo key (the banner says so).
  const options = {
    ...reportOption(env['REPORT_FILE']),
    ...(log ? { log } : {}),
    demo: { key: DEMO_KEYS.all },
  }
  const bridge = await startServer(config, undefined, options).catch(async (err: unknown) => {
    await simulator.close()
    throw portTaken(err, 'PORT', config.port, 'v2bridge')
  })
  const banner = `NerdGraph simulator  ${simulator.url}/graphql
v2 stand-in          ${simulator.url}/v2 (every v2 read from the raw data; kept alerts endpoints)
compare mode         ${compareLine(config.compare.mode)}
v2bridge             ${bridge.url}/v2
API explorer         ${bridge.url}/explorer (every v2 operation, authorized with the first demo key)

Demo keys:
  ${DEMO_KEYS.all}   sees every demo account
  ${DEMO_KEYS.one}   sees one account
  ${DEMO_LEGACY_KEYS.rest}   legacy REST API key, mapped to the first (KEY_MAP)
  ${DEMO_LEGACY_KEYS.license}   legacy license key, mapped to the first (KEY_MAP)

Try:
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' ${bridge.url}/v2/applications.json
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' '${bridge.url}/v2/alerts_incidents.json?only_open=true'
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' -H 'X-V2bridge-Explain: 1' '${bridge.url}/v2/applications/9045822/metrics/data.json?names[]=HttpDispatcher'
  curl -H 'X-Api-Key: ${DEMO_KEYS.all}' ${bridge.url}/v2bridge/report.json
  curl -H 'x-license-key: ${DEMO_LEGACY_KEYS.license}' -d 'deployment[app_name]=Checkout Service (java)' ${bridge.url}/deployments.xml
  npx v2bridge doctor --key ${DEMO_KEYS.all} --nerdgraph-url ${simulator.url}/graphql
  npx v2bridge verify --key ${DEMO_KEYS.all} --nerdgraph-url ${simulator.url}/graphql --v2-url ${simulator.url}/v2
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
