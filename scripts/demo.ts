/** `npm run demo`: see scripts/demo-server.ts. */
import { DemoPortTaken, startDemo } from './demo-server'

const demo = await startDemo(process.env).catch((err: unknown) => {
  if (!(err instanceof DemoPortTaken)) throw err
  console.error(`v2bridge demo: ${err.message}`)
  process.exit(1)
})
console.log(demo.banner)

const stop = async () => {
  await demo.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
