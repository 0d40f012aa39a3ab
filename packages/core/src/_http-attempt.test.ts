import type { Dispatcher } from 'undici'
import { describe, expect, it } from 'vitest'
import { sendAttempt } from './_http-attempt.js'

type Handler = Dispatcher.DispatchHandler & {
  onRequestStart(controller: Dispatcher.DispatchController, context?: unknown): void
  onRequestSent?(): void
}

const controller = (): Dispatcher.DispatchController => {
  let reason: Error | null = null
  return {
    get aborted() {
      return reason !== null
    },
    get paused() {
      return false
    },
    get reason() {
      return reason
    },
    abort(error: Error) {
      reason = error
    },
    pause() {},
    resume() {},
  }
}

/** A dispatcher that plays `script` against the handler it is given, as undici or the CLI's stand-in would. */
const scripted = (script: (handler: Handler, events: string[]) => void, events: string[]) =>
  ({
    dispatch: (_options: unknown, handler: Handler) => {
      script(handler, events)
      return true
    },
  }) as unknown as Dispatcher

const attempt = (dispatcher: Dispatcher, events: string[], timeoutMs = 1000) =>
  sendAttempt({
    service: 'exa',
    dispatcher,
    url: new URL('http://127.0.0.1:9/search'),
    method: 'GET',
    headers: {},
    body: undefined,
    timeoutMs,
    signal: undefined,
    maxBytes: 1024,
    onHeaders: () => events.push('headers'),
    onRequestSent: () => events.push('sent hook'),
  })

const answer = (handler: Handler, c: Dispatcher.DispatchController) => {
  handler.onResponseStart?.(c, 200, { 'content-type': 'application/json' }, 'OK')
  handler.onResponseData?.(c, Buffer.from('{}'))
  handler.onResponseEnd?.(c, {})
}

describe('sendAttempt: when the request-sent hook is told', () => {
  it('as undici calls onRequestStart, which it does while writing the request', async () => {
    const events: string[] = []
    const undiciLike = scripted((handler) => {
      const c = controller()
      handler.onRequestStart(c, { connection: 'keep-alive' })
      answer(handler, c)
    }, events)
    await attempt(undiciLike, events)
    expect(events).toEqual(['sent hook', 'headers'])
  })

  it('at onRequestSent when onRequestStart came early and said so (the CLI stand-in), once', async () => {
    const events: string[] = []
    const standIn = scripted((handler, seen) => {
      const c = controller()
      handler.onRequestStart(c, { sentLater: true })
      seen.push('dispatched')
      setTimeout(() => {
        handler.onRequestSent?.()
        answer(handler, c)
      }, 5)
    }, events)
    await attempt(standIn, events)
    expect(events).toEqual(['dispatched', 'sent hook', 'headers'])
  })

  it('never for an attempt that timed out before its request was written', async () => {
    const events: string[] = []
    let late: (() => void) | undefined
    const slowToConnect = scripted((handler) => {
      const c = controller()
      handler.onRequestStart(c, { sentLater: true })
      late = () => handler.onRequestSent?.()
    }, events)
    await expect(attempt(slowToConnect, events, 20)).rejects.toMatchObject({ kind: 'timeout' })
    late?.()
    expect(events).toEqual([])
  })
})
