/** @module simulator/data/cursor — opaque page cursors (`applicationInstancesV2`, `entitySearch`). */
import { GraphQLError } from 'graphql'

export function encodeOffset(prefix: string, offset: number): string {
  return btoa(`${prefix}:${offset}`)
}

/** Reads a cursor made by encodeOffset with the same prefix; throws INVALID_INPUT otherwise. */
export function decodeOffset(prefix: string, cursor: string): number {
  let text = ''
  try {
    text = atob(cursor)
  } catch {
    text = ''
  }
  const match = /^(.*):(\d+)$/.exec(text)
  if (!match || match[1] !== prefix) {
    throw new GraphQLError('Invalid cursor', { extensions: { errorClass: 'INVALID_INPUT' } })
  }
  return Number(match[2])
}
