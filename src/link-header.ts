/**
 * @module link-header
 * The v2 `Link` header (New Relic docs "Pagination for API output"): absolute URLs on the origin the
 * caller used, every original parameter kept except `page`/`cursor`, `rel="next"` first, then `last`,
 * then `first` and `prev` [UNCONFIRMED order, proposal; KEN notes all four]; none on a single page;
 * never `page=0` or an empty cursor (KEN reads either as the end).
 */

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

/** The public origin: `X-Forwarded-Proto` / `X-Forwarded-Host` when a proxy set them. */
export function publicOrigin(url: URL, headers: Headers): string {
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim()
  const scheme = proto === 'http' || proto === 'https' ? proto : url.protocol.replace(':', '')
  const safeHost = host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? host : url.host
  return `${scheme}://${safeHost}`
}

/** Builds the header value, or undefined when there is nothing to link. */
export function linkHeader(
  url: URL,
  headers: Headers,
  params: [string, string][],
  links: PageLinks
): string | undefined {
  const base = `${publicOrigin(url, headers)}${url.pathname}`
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
  return parts.length ? parts.join(', ') : undefined
}
