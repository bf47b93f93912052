/**
 * The differences between v2bridge and the simulator's v2 stand-in known today (issue 24 sweep), by
 * operation and path, each with what the sweep saw (v2 stand-in → v2bridge); shared by the sweep
 * (sweep.test.ts) and the `v2bridge verify` test (verify.test.ts). Each is either a row of
 * docs/differences.md (`documented`) or open until one side is corrected or the difference is
 * documented (`open`); a new one fails.
 */
const apdex =
  'open: v2bridge rounds apdex_score to two places (src/resources/applications/reshape.ts round2), the stand-in to three significant digits (0.943 → 0.94)'
const endUserZeros = 'open: v2bridge adds end_user_summary with zeros where the stand-in has none'
const lastReported = 'open: v2bridge says the minute after the stand-in (00:57:00 → 00:58:00)'
const summaries = (item: string) => ({
  [`${item}.application_summary.apdex_score`]: apdex,
  [`${item}.end_user_summary.apdex_score`]: apdex,
  [`${item}.end_user_summary`]: endUserZeros,
})
const mobile = (item: string) => ({
  [`${item}.crash_summary.unresolved_crash_count`]:
    'documented: NerdGraph mobileSummary has no unresolved crash count',
  [`${item}.mobile_summary.interaction_time`]:
    'documented: NerdGraph mobileSummary has no interaction time',
})
export const known: Record<string, Record<string, string>> = {
  'GET /v2/applications': {
    ...summaries('applications[]'),
    'applications[]':
      'documented: unpinned, a key that sees several accounts lists them all (the stand-in: its own account)',
    'applications[].application_summary.host_count': 'open: v2bridge counts one host more (2 → 3)',
    'applications[].application_summary.instance_count':
      'open: v2bridge counts one instance more (10 → 11)',
    'applications[].last_reported_at': lastReported,
    'applications[].settings.enable_real_user_monitoring': 'open: true → false',
    'applications[].settings.end_user_apdex_threshold': 'open: 5 → 7',
  },
  'GET /v2/applications/{id}': {
    ...summaries('application'),
    'application.last_reported_at': lastReported,
  },
  'GET /v2/applications/{application_id}/hosts': summaries('application_hosts[]'),
  'GET /v2/applications/{application_id}/hosts/{id}': summaries('application_host'),
  'GET /v2/applications/{application_id}/instances': summaries('application_instances[]'),
  'GET /v2/applications/{application_id}/instances/{id}': summaries('application_instance'),
  'GET /v2/key_transactions': {
    'key_transactions[]': 'open: each lists key transactions the other does not (id 2247008…)',
    'key_transactions[].last_reported_at': 'open: minutes apart (00:57:00 → 00:56:00, 00:58:00)',
  },
  'GET /v2/key_transactions/{id}': { 'key_transaction.last_reported_at': lastReported },
  'GET /v2/browser_applications': {
    'browser_applications[]':
      'documented: unpinned, a key that sees several accounts lists them all (the stand-in: its own account)',
  },
  'GET /v2/mobile_applications': {
    ...mobile('applications[]'),
    'applications[]':
      'documented: unpinned, a key that sees several accounts lists them all (the stand-in: its own account)',
  },
  'GET /v2/mobile_applications/{id}': mobile('application'),
  'GET /v2/users': { 'users[].role': 'documented: NerdGraph user management has no account owner' },
  'GET /v2/users/{id}': {
    'user.role': 'documented: NerdGraph user management has no account owner',
  },
  'GET /v2/alerts_events': {
    '(link).next': 'open: the stand-in pages recent events (page 2), v2bridge answers one page',
    '(link).last': 'open: as (link).next',
    'recent_events[]': 'open: each lists events the other does not (id 1722653428…)',
    'recent_events[].description':
      'open: the stand-in names the policy and the target ("Billing Portal (Billing Portal (dotnet) violated …)"), v2bridge another text',
  },
}
