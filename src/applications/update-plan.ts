/**
 * @module applications/update-plan
 * `PUT /v2/applications/{id}` body → `AgentApplicationSettingsUpdateInput` (pure). Extra members are
 * ignored (swagger notes: "Any extra parameters passed in the body will be ignored"). Values v2 would
 * refuse are 422 "Validation error occurred when updating the application" (swagger 1.1 reason) with
 * one message per field [INFERRED wording]. `enable_real_user_monitoring` is read and checked but has
 * no NerdGraph setting v2bridge can map one to one; it is not sent.
 */
import { applicationSettings, type V2Setting } from '../../mappings/application-settings'
import { V2Error } from '../errors'
import type { V2Params } from '../params'

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
