/**
 * The differences between v2bridge and the simulator's v2 stand-in known today (issue 24 sweep), by
 * operation and path, each with what the sweep saw (v2 stand-in → v2bridge); shared by the sweep
 * (sweep.test.ts) and the `v2bridge verify` test (verify.test.ts). Each is either a row of
 * docs/differences.md (`documented`) or open until one side is corrected or the difference is
 * documented (`open`); a new one fails, and so does one the sweep no longer sees.
 */
const mobile = (item: string) => ({
  [`${item}.crash_summary.unresolved_crash_count`]:
    'documented: NerdGraph mobileSummary has no unresolved crash count',
  [`${item}.mobile_summary.interaction_time`]:
    'documented: NerdGraph mobileSummary has no interaction time',
})
export const known: Record<string, Record<string, string>> = {
  'GET /v2/mobile_applications': mobile('applications[]'),
  'GET /v2/mobile_applications/{id}': mobile('application'),
  'GET /v2/users': { 'users[].role': 'documented: NerdGraph user management has no account owner' },
  'GET /v2/users/{id}': {
    'user.role': 'documented: NerdGraph user management has no account owner',
  },
  'GET /v2/alerts_events': {
    '(link).last':
      'documented: NerdGraph aiIssues give no count, so v2bridge links next, first and prev, never last',
  },
}
