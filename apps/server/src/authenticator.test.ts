import { describe, expect, it } from 'vitest'
import { createAuthenticator, keyIdentity } from './authenticator.js'

describe('createAuthenticator', () => {
  const auth = createAuthenticator([
    { name: 'alice', key: 'sk-alice-0123456789' },
    { name: 'bob', key: 'sk-bob-0123456789' },
  ])
  it.each([
    ['Bearer sk-alice-0123456789', 'alice'],
    ['bearer sk-bob-0123456789', 'bob'],
    ['Bearer sk-bob-0123456789  ', 'bob'],
    ['Bearer sk-alice-012345678', undefined],
    ['Basic sk-alice-0123456789', undefined],
    ['sk-alice-0123456789', undefined],
    ['Bearer ', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, who) => {
    expect(auth.identify(header)).toBe(who)
  })
  it('is off without keys', () => {
    expect(createAuthenticator([]).enabled).toBe(false)
  })
  it('keyIdentity is stable and does not contain the key', () => {
    expect(keyIdentity('tvly-0123456789')).toBe(keyIdentity('tvly-0123456789'))
    expect(keyIdentity('tvly-0123456789')).not.toContain('0123456789')
  })
})
