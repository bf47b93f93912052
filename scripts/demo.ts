/** `npm run demo`: see scripts/demo-server.ts. */
import { startDemo } from './demo-server'

const demo = await startDemo(process.env)
console.log(demo.banner)

const stop = async () => {
  await demo.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
