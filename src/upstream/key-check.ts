/**
 * @module upstream/key-check
 * The smallest NerdGraph request that proves a key: `actor { user { id } }` answers for every user
 * key and 401 for anything else (New Relic docs "NerdGraph tutorial: Manage API keys"). Used where a
 * call needs a known-good key but has no document of its own to send (servers, explain), and where
 * the key's user narrows a search (src/entities/accounts.ts `ownAccount`).
 */
import { gql } from 'graphql-request'
import type { NerdGraph } from './nerdgraph'

export const keyCheckDocument = gql`
  query KeyCheck {
    actor {
      user {
        id
      }
    }
  }
`

/** What the key check answers: the key's user (schema `User.id: Int`). */
export interface KeyCheckData {
  actor: { user: { id: number | null } | null }
}

/** Sends the key check; as a lookup, explain mode lets it through. */
export async function checkKey(nerdgraph: NerdGraph, { lookup = false } = {}): Promise<void> {
  await nerdgraph.query<unknown>(keyCheckDocument, {}, lookup ? { lookup } : {})
}
