import { describe, expect, it } from 'vitest'
import { envSwitch } from './env-switch.js'
import { ConfigError } from './errors.js'

const NAME = 'SEARCH_LAYER_EXAMPLE'
const read = (value: string | undefined) => envSwitch({ [NAME]: value }, NAME)

describe('envSwitch', () => {
  it('reads on, true and 1 as on; off, false and 0 as off; in any case, spaces trimmed', () => {
    for (const on of ['on', 'true', '1', 'ON', ' True ']) expect(read(on)).toBe(true)
    for (const off of ['off', 'false', '0', 'OFF', ' False']) expect(read(off)).toBe(false)
  })

  it('is undefined when unset or empty, so the caller’s default applies', () => {
    expect(read(undefined)).toBeUndefined()
    expect(read('')).toBeUndefined()
    expect(read('  ')).toBeUndefined()
  })

  it('refuses anything else, naming the variable, the value and the words it takes', () => {
    for (const bad of ['yes', 'no', '2', 'enabled']) {
      expect(() => read(bad)).toThrow(`${NAME}="${bad}" is not allowed; use on or off.`)
      expect(() => read(bad)).toThrow(ConfigError)
      expect(() => read(bad)).toThrow(expect.objectContaining({ variable: NAME }))
    }
  })
})
