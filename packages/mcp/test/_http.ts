import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'

/** Serves a web-standard `(Request) => Promise<Response>` handler on a loopback port, as Hono's node adapter would. */
export async function serveWebHandler(
  path: string,
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`)
      if (url.pathname !== path) {
        res.writeHead(404).end()
        return
      }
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
      const request = new Request(url, {
        method: req.method,
        headers,
        ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
      })
      const response = await handler(request)
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res)
      else res.end()
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
