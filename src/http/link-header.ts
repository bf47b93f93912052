/**
 * @module http/link-header
 * The v2 `Link` header (New Relic docs "Pagination for API output"): absolute URLs on the public origin
 * (src/http/origin.ts), every original parameter kept except `page`/`cursor`, `rel="next"` first, then `last`,
 * then `first` and `prev` [UNCONFIRMED order, proposal; KEN notes all four]; none on a single page;
 * never `page=0` or an empty cursor (KEN reads either as the end).
 */
import { V2Error } from '../core/errors'

export interface PageLinks {
  /** The page shown (1-based). */
  page: number
  /** The last page, when known (page-numbered lists); omitted for cursor paging. */
  lastPage?: number
  /** Cursor paging: the cursor of the next page, or null on the last one. */
  nextCursor?: string | null
  /** Page-numbered lists whose last page is unknown: whether a next page exists (no `last`). */
  hasNext?: boolean
}

/** Longest `Link` v2bridge sends: 8 KiB is under every common client's header limit (Node's
 * 16 KiB for all headers, nginx's 8 KiB buffer, curl and Python's http.client). */
export const maxLinkBytes = 8 * 1024

export const linkTitles = {
  tooLong:
    'The parameters are too long to link the other pages (Link header over 8 KiB): send fewer or shorter parameters',
} as const

/** Builds the header value, or undefined when there is nothing to link. */
export function linkHeader(
  url: URL,
  origin: string,
  params: [string, string][],
  links: PageLinks
): string | undefined {
  const base = `${origin}${url.pathname}`
  const kept = params.filter(([k]) => k !== 'page' && k !== 'cursor')
  const href = (extra: [string, string]) => {
    const q = new URLSearchParams([...kept, extra]).toString()
    return `<${base}?${q}>`
  }
  const parts: string[] = []
  if (links.hasNext !== undefined && links.lastPage === undefined) {
    if (links.hasNext) parts.push(`${href(['page', String(links.page + 1)])}; rel="next"`)
    if (links.page > 1) {
      parts.push(`${href(['page', '1'])}; rel="first"`)
      parts.push(`${href(['page', String(links.page - 1)])}; rel="prev"`)
    }
  } else if (links.nextCursor !== undefined) {
    if (links.nextCursor) parts.push(`${href(['cursor', links.nextCursor])}; rel="next"`)
  } else if (links.lastPage !== undefined && links.lastPage > 1) {
    if (links.page < links.lastPage) {
      parts.push(`${href(['page', String(links.page + 1)])}; rel="next"`)
      parts.push(`${href(['page', String(links.lastPage)])}; rel="last"`)
    }
    if (links.page > 1) {
      parts.push(`${href(['page', '1'])}; rel="first"`)
      parts.push(`${href(['page', String(Math.min(links.page - 1, links.lastPage))])}; rel="prev"`)
    }
  }
  const value = parts.join(', ')
  // Never a header a client cannot read, and never pages dropped silently: a clear error instead.
  if (value.length > maxLinkBytes) throw new V2Error(422, linkTitles.tooLong)
  return value || undefined
}
