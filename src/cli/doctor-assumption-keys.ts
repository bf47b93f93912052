/**
 * @module cli/doctor-assumption-keys
 * Doctor's probe of the admin's unnarrowed key search: it lists other users' user keys, obfuscated
 * (New Relic docs "NerdGraph tutorial: Manage API keys", "Query keys"), which is why v2bridge narrows
 * its own search to the caller's user (src/entities/accounts.ts). docs/assumptions.md gives it.
 */
import { doctorKeySearchDocument, type KeySearchData } from './doctor-assumption-documents'
import { doc, errorsOf, type Probe, type Verdict } from './doctor-assumption-probe'

/** A user key that looks whole: `NRAK-` and 20 or more letters and digits, no ellipsis or mask
 * (the exact obfuscated form is not documented). */
const fullKey = /^NRAK-[A-Z0-9]{20,}$/i

type Key = { key: string | null; userId?: number | null }

/** Pure: the verdict on one page of the unnarrowed search of user `userId`. */
export function keySearchVerdict(userId: number, keys: readonly Key[]): [Verdict, string] {
  const others = keys.filter((k) => k.userId !== userId)
  const inFull = others.find((k) => fullKey.test(k.key ?? ''))
  if (inFull)
    return [
      'contradicted',
      `user ${inFull.userId}'s key listed in full; v2bridge keeps narrowing its search to the caller's user`,
    ]
  if (others.length)
    return [
      'confirmed',
      `${others.length} of ${keys.length} keys on the page are other users', obfuscated`,
    ]
  // No read-only NerdGraph field tells whether the user may see other users' keys
  // (docs/assumptions.md, admin-key-search).
  return ['unknown', `only the caller's own ${keys.length} key(s): the user may not be an admin`]
}

export const keyProbes: Probe[] = [
  {
    id: 'admin-key-search',
    statement: "an admin's unnarrowed key search lists other users' user keys too, obfuscated",
    covers: `${doc('admin-key-search')} (v2bridge narrows its search to the caller's user)`,
    async run(ctx) {
      const answer = await ctx.ask<KeySearchData>(doctorKeySearchDocument)
      const userId = answer.data?.actor.user?.id
      const search = answer.data?.actor.apiAccess?.keySearch
      if (typeof userId !== 'number' || !search) return ['unknown', errorsOf(answer)]
      const keys = (search.keys ?? []).filter((k): k is Key => k !== null)
      return keySearchVerdict(userId, keys)
    },
  },
]
