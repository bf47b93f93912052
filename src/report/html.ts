/**
 * @module report/html
 * The report as one HTML page (pure): operations grouped by what they become in NerdGraph, each
 * with its calls, parameter names, metric names, documents (literals masked) and field mapping.
 */
import type { ReportBody } from './view'

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
export const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (ch) => escapes[ch]!)

const list = (items: readonly string[]) =>
  items.length ? items.map((i) => `<code>${esc(i)}</code>`).join(' ') : '<i>none</i>'

type Operation = ReportBody['report']['operations'][number]

function operationHtml(op: Operation, base: string): string {
  const docs = op.nerdgraph
    .map(
      (d) =>
        `<h4>${esc(d.kind)} ${esc(d.operation ?? '')}</h4><pre>${esc(d.document.trim())}</pre>` +
        `<p>variables: ${list(d.variables)}</p>` +
        d.nrql.map((q) => `<pre class="nrql">${esc(q)}</pre>`).join('')
    )
    .join('')
  const fields = Object.entries(op.fields)
    .map(([v2, from]) => `<tr><td><code>${esc(v2)}</code></td><td>${esc(from)}</td></tr>`)
    .join('')
  return `<section>
<h3><code>${esc(op.method)} ${esc(op.path)}</code> ${esc(op.summary ?? '')}</h3>
<p>${op.count} call(s), ${op.errors} error(s), client ${esc(op.client)}, first ${esc(op.first_seen)}, last ${esc(op.last_seen)}</p>
<p>parameters: ${list(op.parameters)}</p>
${op.metric_names.length ? `<p>metric names: ${list(op.metric_names)}</p><p>value types: ${list(op.value_types)}</p>` : ''}
${docs || '<p>No NerdGraph request recorded for this operation.</p>'}
${fields ? `<table><tr><th>v2 field</th><th>from NerdGraph</th></tr>${fields}</table>` : ''}
<p>Explain a call: <code>curl -H "X-Api-Key: $NEW_RELIC_USER_KEY" -H 'X-V2bridge-Explain: 1' '${esc(base)}${esc(op.path)}.json'</code> (fill in the IDs)</p>
</section>`
}

export function reportHtml(body: ReportBody, base: string): string {
  const groups = new Map<string, Operation[]>()
  for (const op of body.report.operations) {
    const group = groups.get(op.becomes) ?? []
    group.push(op)
    groups.set(op.becomes, group)
  }
  const sections = [...groups]
    .map(
      ([heading, ops]) =>
        `<h2>${esc(heading)}</h2>\n${ops.map((o) => operationHtml(o, base)).join('\n')}`
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>v2bridge migration report</title>
<style>body{font:14px/1.4 system-ui,sans-serif;max-width:70em;margin:2em auto}pre{background:#f4f4f4;padding:.5em;overflow:auto}td{vertical-align:top;padding:0 .5em}</style>
</head><body>
<h1>Migration report for key ${esc(body.report.key)}</h1>
<p>New Relic REST API v2 reaches its end of life on <strong>${esc(body.report.end_of_life)}</strong> (31 July 2027). Below: every v2 operation this key called through v2bridge and what it is in NerdGraph.</p>
${sections || '<p>No calls recorded yet.</p>'}
</body></html>`
}
