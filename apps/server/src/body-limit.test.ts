import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from './request-env.js'
import { requestBodyLimit } from './middleware/body-limit.js'

// Counts reads of `body`: on the Node server, reading it is what builds a whole fetch Request from the Node request.
function watchBody(req: Request): () => number {
  let reads = 0
  const read = Object.getOwnPropertyDescriptor(Request.prototype, 'body')?.get
  Object.defineProperty(req, 'body', {
    get() {
      reads++
      return read?.call(req)
    },
  })
  return () => reads
}

function appWithLimit(maxBytes: number) {
  const app = new Hono<AppEnv>()
  app.use(requestBodyLimit({ maxBytes }))
  app.all('/echo', async (c) => c.json({ method: c.req.method, bytes: (await c.req.text()).length }))
  return app
}

describe('requestBodyLimit', () => {
  it.each(['GET', 'HEAD'])('lets a %s through without reading its body', async (method) => {
    const req = new Request('http://local/echo', { method })
    const bodyReads = watchBody(req)
    const res = await appWithLimit(16).fetch(req)
    expect(res.status).toBe(200)
    expect(bodyReads()).toBe(0)
  })

  it('answers 413 in the server error shape to a POST body over the limit', async () => {
    const res = await appWithLimit(16).fetch(new Request('http://local/echo', { method: 'POST', body: 'x'.repeat(17) }))
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ code: 'body_too_large', error: 'Request body is larger than 16 bytes' })
  })

  it('passes a POST body within the limit on whole', async () => {
    const res = await appWithLimit(16).fetch(new Request('http://local/echo', { method: 'POST', body: 'x'.repeat(16) }))
    expect(await res.json()).toEqual({ method: 'POST', bytes: 16 })
  })
})
