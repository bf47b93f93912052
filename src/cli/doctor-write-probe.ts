/**
 * @module cli/doctor-write-probe
 * Doctor's one probe that writes, run only with `--write-probe`: a tag with a fresh value added to one
 * APM application, read back through entity search until it shows, then deleted. A write shows in
 * reads only after a delay (over a minute seen for tags: terraform-provider-newrelic issues #791 and
 * #1556). Each mutation is sent once, never retried; a tag that could not be deleted is named so the
 * user can remove it. docs/assumptions.md, write-visibility, gives it.
 */
import { quote } from '../core/nrql'
import { taggingDocument, type TaggingData } from '../resources/labels/documents'
import { doctorTagsDocument, type TagsData } from './doctor-assumption-documents'
import {
  doc,
  errorsOf,
  minute,
  type AssumptionResult,
  type GqlAnswer,
  type ProbeContext,
} from './doctor-assumption-probe'

export const writeVisibility = {
  id: 'write-visibility',
  statement: 'a tag added to an entity shows in entity search only after a delay',
  covers: `${doc('write-visibility')} (v2bridge shows a key its own writes while the index catches up)`,
} as const

export const tagKey = 'v2bridge-doctor'

export interface WriteProbeOptions {
  /** The entity to tag; an APM application of the key's by default. */
  entity?: string
  /** ms between reads (3 s by default). */
  pollMs?: number
  /** ms of reads before giving up (3 minutes by default). */
  maxWaitMs?: number
}

export interface WriteProbeResult {
  result: AssumptionResult
  /** The tag the probe could not delete, said so the user removes it. */
  leftover?: string
}

/** The assumption without `--write-probe`: nothing is sent. */
export const notProbed: AssumptionResult = {
  ...writeVisibility,
  verdict: 'not probed',
  seen: 'writes; run with --write-probe',
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** A mutation's failure, or undefined when it answered without an error. */
function failure(answer: GqlAnswer<TaggingData>): string | undefined {
  const errors = answer.data?.['t0']?.errors ?? []
  if (answer.status === 200 && answer.data?.['t0'] && !answer.errors.length && !errors.length)
    return undefined
  return errors.map((e) => e.message).join('; ') || errorsOf(answer)
}

export async function probeWriteVisibility(
  ctx: ProbeContext,
  o: WriteProbeOptions
): Promise<WriteProbeResult> {
  const say = (verdict: AssumptionResult['verdict'], seen: string, leftover?: string) => ({
    result: { ...writeVisibility, verdict, seen },
    ...(leftover ? { leftover } : {}),
  })
  const guid = o.entity ?? ctx.app?.guid
  if (!guid) return say('unknown', 'no APM application to tag; name an entity with --entity')
  const clock = ctx.clock ?? (() => performance.now())
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const value = crypto.randomUUID()
  const tag = `${tagKey}: ${value}`
  const left = (why: string) => `remove the tag "${tag}" from entity ${guid} (${why})`

  let added: GqlAnswer<TaggingData>
  try {
    added = await ctx.ask<TaggingData>(taggingDocument('add', 1), {
      g0: guid,
      tags: [{ key: tagKey, values: [value] }],
    })
  } catch (err) {
    const why = `the add may have happened: ${(err as Error).message}`
    return say('unknown', why, left(why))
  }
  const refused = failure(added)
  if (refused) {
    // A 5xx may hide a write that happened (docs/errors.md).
    const maybe = added.status >= 500 ? left(`the add answered HTTP ${added.status}`) : undefined
    return say('unknown', `the tag was not added: ${refused}`, maybe)
  }
  const written = clock()

  const shown = async () => {
    const read = await ctx.ask<TagsData>(doctorTagsDocument, { query: `id = ${quote(guid)}` })
    const entity = read.data?.actor.entitySearch?.results.entities.find((e) => e.guid === guid)
    if (!entity) return undefined
    return (entity.tags ?? []).some((t) => t.key === tagKey && t.values.includes(value))
  }
  let verdict: [AssumptionResult['verdict'], string]
  const first = await shown().catch(() => undefined)
  if (first === undefined) verdict = ['unknown', 'the first read after the write failed']
  else if (first) verdict = ['contradicted', 'visible at the first read after the write']
  else {
    const maxWait = o.maxWaitMs ?? 3 * minute
    let seenAt: number | undefined
    while (seenAt === undefined && clock() - written < maxWait) {
      await sleep(o.pollMs ?? 3000)
      if (await shown().catch(() => false)) seenAt = clock()
    }
    verdict = [
      'confirmed',
      seenAt === undefined
        ? `not visible at the first read, nor after ${secs(maxWait)}`
        : `not visible at the first read; visible ${secs(seenAt - written)} after the write`,
    ]
  }

  let deleted: string | undefined
  try {
    deleted = failure(
      await ctx.ask<TaggingData>(taggingDocument('delete', 1), {
        g0: guid,
        tags: [{ key: tagKey, value }],
      })
    )
  } catch (err) {
    deleted = (err as Error).message
  }
  return deleted ? say(...verdict, left(`the delete failed: ${deleted}`)) : say(...verdict)
}
