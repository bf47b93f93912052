/**
 * @module resources/applications/update-plan
 * `PUT /v2/applications/{id}` body → `AgentApplicationSettingsUpdateInput` (pure). Extra members are
 * ignored (swagger notes: "Any extra parameters passed in the body will be ignored"). Values v2 would
 * refuse are 422 "Validation error occurred when updating the application" (swagger 1.1 reason) with
 * one message per field [INFERRED wording]. `enable_real_user_monitoring` sets the browser agent's
 * loader (mappings/application-settings.ts). The answer is the record GET showed, with what the
 * mutation's own result says (`updatedRecord`).
 */
import {
  applicationSettings,
  realUserMonitoringLoader,
  type V2Setting,
} from '../../../mappings/application-settings'
import { V2Error } from '../../core/errors'
import { maxNameLength } from '../../http/create-params'
import { round2 } from '../../core/numbers'
import type { V2Params } from '../../http/params'

export const updateTitles = {
  missing: 'missing parameter: application', // Rails ParameterMissing, as for deployments (DPHP)
  invalid: 'Validation error occurred when updating the application', // swagger 1.1, 422
} as const

const keyOf = (name: V2Setting) =>
  name === 'name' ? 'application[name]' : `application[settings][${name}]`

/** The NerdGraph settings input, or 400/422. */
export function settingsInput(p: V2Params): Record<string, Record<string, unknown> | string> {
  if (!p.entries().some(([k]) => k.startsWith('application['))) {
    throw new V2Error(400, updateTitles.missing)
  }
  const input: Record<string, Record<string, unknown> | string> = {}
  const messages: string[] = []
  for (const [name, row] of Object.entries(applicationSettings) as [
    V2Setting,
    (typeof applicationSettings)[V2Setting],
  ][]) {
    const raw = p.get(keyOf(name))?.trim()
    if (raw === undefined) continue
    if (row.kind === 'text') {
      if (raw === '') messages.push(`${name} can't be blank`)
      else if (raw.length > maxNameLength)
        messages.push(`${name} is too long (maximum is ${maxNameLength} characters)`)
      else input['alias'] = raw
    } else if (row.kind === 'seconds') {
      const value = Number(raw)
      if (raw === '' || !Number.isFinite(value) || value <= 0) {
        messages.push(`${name} must be a number greater than 0`)
      } else {
        const [group, key] = row.path as readonly [string, string]
        input[group] = { [key]: value }
      }
    } else if (!/^(true|false)$/i.test(raw)) {
      messages.push(`${name} must be true or false`)
    } else {
      const loader = realUserMonitoringLoader[raw.toLowerCase() as 'true' | 'false']
      input['browserMonitoring'] = { loader }
    }
  }
  if (messages.length) throw new V2Error(422, updateTitles.invalid, { messages })
  return input
}

/** A NerdGraph settings error `field` → the v2 setting it stands for. */
export function v2SettingOf(field: string | null | undefined): string {
  const hit = Object.entries(applicationSettings).find(([, row]) => row.field === field)
  return hit ? hit[0] : 'settings'
}

/** The fields of `agentApplicationSettingsUpdate`'s result the answer reads. */
export interface SettingsResult {
  alias: string | null
  name: string | null
  apmSettings: {
    apmConfig: { apdexTarget: number | null; useServerSideConfig: boolean | null }
  } | null
  browserSettings: {
    browserConfig: { apdexTarget: number | null }
    browserMonitoring: { loader: string | null }
  } | null
}

/**
 * The v2 record after an update: `shown` (as GET showed it) with the name and settings the mutation
 * answered. Keys keep GET's order; `shown` is not changed. The browser apdex T and loader are taken
 * only when one of them was sent: GET shows T from EndUser/Apdex data and RUM from browser data, not
 * these settings.
 */
export function updatedRecord(
  shown: Record<string, unknown>,
  result: SettingsResult,
  sent: Record<string, unknown>
): Record<string, unknown> {
  const record = structuredClone(shown)
  const settings = record['settings'] as Record<string, unknown>
  const name = result.alias ?? result.name
  if (name) record['name'] = name
  const apm = result.apmSettings?.apmConfig
  if (typeof apm?.apdexTarget === 'number') {
    settings['app_apdex_threshold'] = apm.apdexTarget
    const summary = record['application_summary'] as Record<string, unknown> | undefined
    if (summary) summary['apdex_target'] = round2(apm.apdexTarget)
  }
  if (typeof apm?.useServerSideConfig === 'boolean') {
    settings['use_server_side_config'] = apm.useServerSideConfig
  }
  const browser = result.browserSettings
  const browserT = browser?.browserConfig.apdexTarget
  // Sent, or kept by NerdGraph and now in force because the loader turned browser monitoring on.
  if (('browserConfig' in sent || 'browserMonitoring' in sent) && typeof browserT === 'number') {
    settings['end_user_apdex_threshold'] = browserT
    // as GET shows it once NerdGraph does (reshape.ts: the served browser application's T)
    const endUser = record['end_user_summary'] as Record<string, unknown> | undefined
    if (endUser) endUser['apdex_target'] = round2(browserT)
  }
  const loader = browser?.browserMonitoring.loader
  if ('browserMonitoring' in sent && loader) {
    settings['enable_real_user_monitoring'] = loader !== realUserMonitoringLoader.false
    if (loader === realUserMonitoringLoader.false) delete record['end_user_summary']
  }
  return record
}
