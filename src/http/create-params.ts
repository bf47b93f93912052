/**
 * @module http/create-params
 * The `name` of a v2 create body (`{"browser_application": {"name": …}}`, or the same as form fields
 * `browser_application[name]=…`): the wrapper missing is 400 `missing parameter: <wrapper>` as v2
 * answers (docs-website issue #7091 records the 400), a blank name 422 with v2's validation body.
 */
import { V2Error } from '../core/errors'
import type { V2Params } from './params'

/** The longest application name v2 took (its validation message in the create answers below). */
export const maxNameLength = 255

export function createName(params: V2Params, wrappers: readonly string[]): string {
  const present = wrappers.filter((w) => params.entries().some(([k]) => k.startsWith(`${w}[`)))
  if (present.length === 0) throw new V2Error(400, `missing parameter: ${wrappers[0]}`)
  const name = params.get(`${present[0]}[name]`)?.trim() ?? ''
  if (name === '') {
    throw new V2Error(422, 'Validation failed', { messages: ["Name can't be blank"] })
  }
  if (name.length > maxNameLength) {
    throw new V2Error(422, 'Validation failed', {
      messages: ['Name is too long (maximum is 255 characters)'],
    })
  }
  return name
}
