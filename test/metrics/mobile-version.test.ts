import { describe, expect, it } from 'vitest'
import { harness } from '../helpers/harness'

/**
 * New Relic docs "Mobile crash count and crash rate example (v2)" send a mobile app *version* ID to
 * `/v2/mobile_applications/{id}/metrics/data` and find it with NRQL (`SELECT count(*) FROM Mobile
 * … FACET appVersionId`). NerdGraph has no mobile app version entity (MobileApplicationEntity has no
 * version field), so v2bridge cannot resolve that ID to the timeslices v2 served: a documented
 * difference ("Where v2bridge differs from v2"). This pins the answer: the resource's v2 404, never
 * a 500 or another app's data.
 */
describe('mobile metric data by an app version ID', () => {
  it('answers the mobile 404 in v2 shape on the data and names paths', async () => {
    const h = harness()
    const version = 601483763 // next to Shop iOS (601483762): not a mobile application
    const data = await h.get(
      `/v2/mobile_applications/${version}/metrics/data.json?names[]=Mobile/Crash/All&names[]=Session/Start&values[]=call_count&summarize=true`
    )
    expect(data.status).toBe(404)
    expect(await data.json()).toEqual({
      error: { title: 'No Mobile Application found with the given ID' },
    })
    const names = await h.get(`/v2/mobile_applications/${version}/metrics.json`)
    expect(names.status).toBe(404)
  })
})
