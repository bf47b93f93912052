/**
 * @module entities/kinds
 * The non-APM entities v2 names by a numeric ID, as data: NerdGraph domain and type (entity GUID
 * `acct|DOMAIN|TYPE|id`, entity-definitions guid_spec) and v2's 404 title. Shared here because more
 * than one resource resolves them (mobile applications and their metric data).
 */
import type { EntityKind } from './resolve-entity'

export const mobileKind: EntityKind = {
  domain: 'MOBILE',
  type: 'APPLICATION',
  notFound: 'No Mobile Application found with the given ID', // [UNCONFIRMED proposal]
}

export const keyTransactionKind: EntityKind = {
  domain: 'EXT',
  type: 'KEY_TRANSACTION',
  notFound: 'No key transaction found with the given ID', // [UNCONFIRMED proposal]
}
