import { describe, expect, it } from 'vitest'
import { cancellationRegistry } from './_cancellation.js'

const post = (authorization?: string) =>
  new Request('http://localhost/mcp', { method: 'POST', ...(authorization && { headers: { authorization } }) })
const call = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'web_search' } })
const cancelOf = (requestId: unknown) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } })

function closer() {
  const closed: number[] = []
  return { closed, close: async () => void closed.push(1) }
}

describe('cancellationRegistry', () => {
  it('closes the call a cancellation names, once', () => {
    const registry = cancellationRegistry()
    const a = closer()
    registry.track(post('Bearer k1'), call(7), a.close)
    expect(registry.cancel(post('Bearer k1'), cancelOf(7))).toBe(true)
    expect(registry.cancel(post('Bearer k1'), cancelOf(7))).toBe(false)
    expect(a.closed).toHaveLength(1)
  })

  it.each([
    ['another client', 'Bearer k2', 7],
    ['no credentials', undefined, 7],
    ['another id', 'Bearer k1', 8],
    ['the id as a string', 'Bearer k1', '7'],
  ])('leaves the call alone for %s', (_name, authorization, requestId) => {
    const registry = cancellationRegistry()
    const a = closer()
    registry.track(post('Bearer k1'), call(7), a.close)
    expect(registry.cancel(post(authorization), cancelOf(requestId))).toBe(false)
    expect(a.closed).toEqual([])
  })

  it('forgets a call whose response ended, and ignores what is not a request or a cancellation', () => {
    const registry = cancellationRegistry()
    const a = closer()
    const forget = registry.track(post(), call('x'), a.close)
    forget()
    expect(registry.cancel(post(), cancelOf('x'))).toBe(false)
    for (const message of [null, 'text', { id: 1 }, { method: 'notifications/initialized' }, cancelOf({ id: 1 })])
      expect(registry.cancel(post(), message)).toBe(false)
    expect(a.closed).toEqual([])
  })

  it('keys clients by the given function', () => {
    const registry = cancellationRegistry((request) => request.headers.get('x-client') ?? '')
    const a = closer()
    const from = (client: string) =>
      new Request('http://localhost/mcp', { method: 'POST', headers: { 'x-client': client } })
    registry.track(from('one'), call(1), a.close)
    expect(registry.cancel(from('two'), cancelOf(1))).toBe(false)
    expect(registry.cancel(from('one'), cancelOf(1))).toBe(true)
  })
})
