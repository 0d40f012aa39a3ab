import { describe, expect, it } from 'vitest'
import { ADVERSARIAL_TEXTS, sizedText } from './growth.js'
import { useEmulator } from './vitest.js'

describe('useEmulator', () => {
  const emu = useEmulator()
  let collectionError: unknown
  try {
    void emu.url
  } catch (error) {
    collectionError = error
  }

  it('throws when read while the file is collected, before its hooks ran', () => {
    expect(String(collectionError)).toMatch(/useEmulator\(\): emulator\.url read outside a test or hook/)
  })

  it('is started before the first test, with bound methods', async () => {
    emu.fault('brave', { status: 503 })
    const res = await fetch(`${emu.urls.brave}/res/v1/web/search?q=x`, {
      headers: { 'X-Subscription-Token': emu.keys.brave },
    })
    expect(res.status).toBe(503)
    expect(emu.count('brave')).toBe(1)
  })

  it('is reset before each test', async () => {
    expect(emu.count()).toBe(0)
    const res = await fetch(`${emu.urls.brave}/res/v1/web/search?q=x`, {
      headers: { 'X-Subscription-Token': emu.keys.brave },
    })
    expect(res.status).toBe(200)
  })
})

describe('useEmulator({ resetEachTest: false })', () => {
  const emu = useEmulator({ resetEachTest: false, keys: { brave: 'brave-kept-key-0001' } })

  it('passes the emulator options on', async () => {
    expect(emu.keys.brave).toBe('brave-kept-key-0001')
    await fetch(`${emu.urls.brave}/res/v1/web/search?q=x`, { headers: { 'X-Subscription-Token': emu.keys.brave } })
  })

  it('keeps what the tests before recorded', () => {
    expect(emu.count('brave')).toBe(1)
  })
})

describe('sizedText', () => {
  it('builds a named adversarial text to exactly the size asked', () => {
    const text = sizedText('open brackets', 1 << 20)
    expect(text).toHaveLength(1 << 20)
    expect(text.startsWith(ADVERSARIAL_TEXTS['open brackets']!(3))).toBe(true)
  })

  it('takes a builder of its own, cutting its last repetition', () => {
    expect(sizedText((n) => 'abc'.repeat(n), 10)).toBe('abcabcabca')
  })

  it('refuses a name it does not hold', () => {
    expect(() => sizedText('no such text', 10)).toThrow(/no adversarial text named "no such text"/)
  })
})
