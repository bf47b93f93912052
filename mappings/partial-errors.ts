/**
 * @module mappings/partial-errors
 * What a GraphQL `errors` list beside (partial) `data` does to a v2 call, per NerdGraph operation
 * (the name after `query`). GraphQL nulls the failed field and returns the rest (GraphQL spec
 * "Handling Field Errors"; a real NRQL timeout in newrelic/nr-reports issue #8).
 *
 * - `fail`: every error fails the v2 call with the most severe mapped status (502, 504, 429…). Use it
 *   when a missing piece would turn into a wrong answer (an app missing from a list looks deleted; a
 *   failed search looks like "No Application found").
 * - `tolerate`: errors on a field (`path` set) are handed to the route in `result.errors`, which then
 *   reports that piece as absent or not found. Errors without a path, or of a whole-request class
 *   (TOO_MANY_REQUESTS, BAD_API_KEY), still fail the call.
 * - `alerts-optional`: `fail`, except errors under an alias named `conditions` (the NRQL conditions
 *   behind an application's `links.alert_policy`), which are handed to the route as `tolerate`
 *   hands them: a key that may read applications but not alerts still gets its applications.
 *
 * Deprecation notices (`This field is deprecated!`) never fail a call (client-go logs them).
 * An operation not listed here is `fail`; a route may override per call (`query(…, { partial })`).
 */
export type PartialErrorPolicy = 'fail' | 'tolerate' | 'alerts-optional'

/** The alias whose errors `alerts-optional` tolerates. */
export const optionalAlertsAlias = 'conditions'

export const partialErrorPolicies = {
  Accounts: 'fail', // the account list scopes every search: a partial list hides applications
  KeyAccount: 'tolerate', // a key search denied on a field says nothing; the account chain goes on (src/entities/accounts.ts)
  FindApplication: 'fail', // a failed search must not become 404 "No Application found"
  ListApplications: 'alerts-optional', // a failed NRQL alias would drop hosts/summaries of a whole account
  ShowApplication: 'alerts-optional', // a failed NRQL alias would show an app without its hosts/instances
  ApplicationHosts: 'fail', // a failed NRQL alias would list no hosts: looks like none exist
  Nrql: 'fail', // one query, one answer: nothing to keep if it failed
  AccountInsights: 'alerts-optional', // as ListApplications: a failed alias would hide hosts of an account
  MetricData: 'fail', // a failed alias would turn found metrics into metrics_not_found
  ListDeployments: 'fail', // a failed search would look like an application without deployments
  CreateDeployment: 'tolerate', // the route answers a refused mutation as v2 does (404 or 422)
  UpdateApplicationSettings: 'tolerate', // a refused update is v2's 404 (unknown app) or 422
  DeleteApplication: 'tolerate', // a refused delete is v2's 409 (still reporting) or 404
  FindEntity: 'fail', // a failed search must not become the resource's 404
  SearchCursor: 'fail', // a failed cursor walk must not look like the end of the list
  ListKeyTransactions: 'fail', // a partial page would hide key transactions
  KeyTransactionDetails: 'fail', // a failed alias would show key transactions without summaries
  Users: 'tolerate', // a key that may not read users still gets 200 and an empty list (key probes)
  ListBrowserApplications: 'fail', // a partial page would hide browser applications
  BrowserApplicationDetails: 'fail', // a failed alias would list apps without loader scripts
  ListMobileApplications: 'fail', // a partial page would hide mobile applications
  LabelSearch: 'fail', // a partial page would drop labels
  LabelEntities: 'fail', // a missing application must not look untagged
  AddLabel: 'tolerate', // a refused alias leaves the others applied: the route changes them back
  DeleteLabel: 'tolerate', // as AddLabel
  KeyCheck: 'fail', // only asks whether NerdGraph accepts the key
  ShowKeyTransaction: 'fail', // a failed summary would show a reporting KT without figures
  AlertIssues: 'fail', // a failed policies search would give wrong incident preferences
  AlertIncidents: 'fail', // one list: nothing to keep if it failed
  AckIssue: 'fail', // a write: its answer must be whole
  ResolveIssue: 'fail', // a write: its answer must be whole
  AlertChannels: 'fail', // one list: nothing to keep if it failed
  AlertChannel: 'fail', // a failed read must not become 404 "No channel was found"
  CreateChannel: 'fail', // a write: its answer must be whole
  DeleteChannel: 'fail', // a write: its answer must be whole
  AddChannelsToPolicy: 'fail', // a write: its answer must be whole
  RemoveChannelsFromPolicy: 'fail', // a write: its answer must be whole
} as const satisfies Record<string, PartialErrorPolicy>

export const defaultPartialErrorPolicy: PartialErrorPolicy = 'fail'

/** Classes that concern the whole request even when they come with a `path`. */
export const wholeRequestClasses: ReadonlySet<string> = new Set([
  'TOO_MANY_REQUESTS',
  'BAD_API_KEY',
])

export function partialErrorPolicyFor(operation: string | undefined): PartialErrorPolicy {
  return (
    (partialErrorPolicies as Record<string, PartialErrorPolicy>)[operation ?? ''] ??
    defaultPartialErrorPolicy
  )
}
