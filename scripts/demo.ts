/** `npm run demo`: see src/cli/demo.ts. */
import { startDemo } from '../src/cli/demo'

const demo = await startDemo(process.env)
console.log(demo.banner)

const stop = async () => {
  await demo.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
