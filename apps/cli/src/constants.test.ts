import { INTENTS, MODES } from '@search-layer/core'
import { describe, expect, it } from 'vitest'
import { INTENT_LIST, MODE_CHOICES } from './constants.js'

describe('CLI-local copies of core lists (kept for start-up time)', () => {
  it('match core exactly', () => {
    expect([...MODE_CHOICES]).toEqual([...MODES])
    expect([...INTENT_LIST]).toEqual([...INTENTS])
  })
})
