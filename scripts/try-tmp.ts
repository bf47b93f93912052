import { harness } from '../test/helpers/harness'
const h = harness()
for (const path of ['/v2/applications/9045822/hosts.json', '/v2/applications/9045822/instances.json?filter[hostname]=web']) {
  const res = await h.get(path)
  console.log(path, res.status, (await res.text()).slice(0, 1800))
}
console.log(h.sim.stats().graphqlRequests)
