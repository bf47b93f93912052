/** A fetch that records what v2bridge sends upstream and answers from a script. */
export interface SentRequest {
  url: string
  headers: Record<string, string>
  query: string
  variables: Record<string, unknown>
}

export type Reply =
  { status?: number; body: unknown; contentType?: string } | (() => Promise<Response>)

export function fakeFetch(...replies: Reply[]) {
  const sent: SentRequest[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init)
    const payload = JSON.parse(await req.text()) as {
      query: string
      variables?: Record<string, unknown>
    }
    sent.push({
      url: req.url,
      headers: Object.fromEntries(req.headers),
      query: payload.query,
      variables: payload.variables ?? {},
    })
    const reply = replies[Math.min(sent.length - 1, replies.length - 1)]!
    if (typeof reply === 'function') return reply()
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
    return new Response(text, {
      status: reply.status ?? 200,
      headers: { 'content-type': reply.contentType ?? 'application/json' },
    })
  }
  return { fetch: fetch as typeof globalThis.fetch, sent }
}
