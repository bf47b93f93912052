/**
 * @module mappings/client-families
 * `User-Agent` → the client family the migration report groups calls by. First match wins; only
 * the family is kept, never the header itself (it can carry host names or versions).
 * Sources: each client's own User-Agent (newrelic-client-go internal/http/client.go "newrelic/
 * newrelic-client-go"; Terraform's "Terraform/x (+https://www.terraform.io)"; python-requests
 * "python-requests/x"; Ruby's Net::HTTP "Ruby"; Go net/http "Go-http-client/x"; curl "curl/x").
 */
export const clientFamilies = [
  [/newrelic-client-go/i, 'newrelic-client-go'],
  [/terraform/i, 'Terraform'],
  [/newrelic-cli/i, 'newrelic-cli'],
  [/python-requests|python-urllib|aiohttp|httpx/i, 'Python'],
  [/faraday|rest-client|^ruby/i, 'Ruby'],
  [/go-http-client/i, 'Go'],
  [/^curl\//i, 'curl'],
  [/^wget/i, 'Wget'],
  [/powershell/i, 'PowerShell'],
  [/axios|node-fetch|undici|^node/i, 'Node.js'],
  [/okhttp|apache-httpclient|^java/i, 'Java'],
  [/prometheus|exporter/i, 'Prometheus exporter'],
  [/^mozilla\//i, 'Browser'],
] as const satisfies readonly (readonly [RegExp, string])[]

/** The family of a `User-Agent`, `unknown` when none matches or it is absent. */
export function clientFamily(userAgent: string | undefined): string {
  if (!userAgent) return 'unknown'
  const ua = userAgent.slice(0, 512)
  return clientFamilies.find(([re]) => re.test(ua))?.[1] ?? 'other'
}
