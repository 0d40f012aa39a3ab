import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import { useEmulator } from '@search-layer/testkit/vitest'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { FetchError, type SafeFetchOptions, safeFetch } from './index.js'

const emu = useEmulator({ resetEachTest: false })
let port: string
const servers: Server[] = []

beforeAll(async () => {
  port = new URL(emu.url).port
})
afterEach(async () => {
  emu.reset()
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve())
          s.closeAllConnections()
        }),
    ),
  )
})

/** A real loopback server for responses the emulator does not make (bombs, odd encodings, hangs). */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port: p } = server.address() as AddressInfo
  return host.includes(':') ? `http://[${host}]:${p}` : `http://${host}:${p}`
}

const open: SafeFetchOptions = { allowPrivateHosts: true }
const redirectTo = (to: string, status = 302) =>
  `${emu.urls.pages}/redirect?status=${status}&to=${encodeURIComponent(to)}`

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError)
    return error as FetchError
  }
  throw new Error('expected the fetch to fail')
}

describe('SSRF guard: refused by default', () => {
  const vectors = () => [
    `http://127.0.0.1:${port}/pages/article`,
    `http://2130706433:${port}/pages/article`,
    `http://0x7f000001:${port}/pages/article`,
    `http://0x7f.1:${port}/pages/article`,
    `http://0177.0.0.1:${port}/pages/article`,
    `http://0177.1:${port}/pages/article`,
    `http://127.1:${port}/pages/article`,
    `http://127.0.1:${port}/pages/article`,
    `http://localhost:${port}/pages/article`,
    `http://LOCALHOST.:${port}/pages/article`,
    `http://[::1]:${port}/`,
    `http://[0:0:0:0:0:0:0:1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[64:ff9b::127.0.0.1]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://0:${port}/`,
    `http://[::]:${port}/`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://2852039166/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[fe80::1]/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/admin',
    'http://100.64.0.1/',
    'http://198.18.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://240.0.0.1/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[ff02::1]/',
    'https://127.0.0.1/',
  ]

  it('covers every vector', () => {
    expect(vectors()).toHaveLength(34)
  })

  it.each(Array.from({ length: 34 }, (_, i) => i))('vector %i is blocked before any request is made', async (i) => {
    const url = vectors()[i] as string
    const error = await failure(safeFetch(url, { env: {} }))
    expect(error).toMatchObject({ kind: 'blocked', url, retryable: false })
    expect(error.message).toMatch(
      /^refused to fetch .*: .*address; set SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1 to allow private hosts$/,
    )
    expect(emu.count()).toBe(0)
  })

  it('names the address and the opt-in in the message', async () => {
    const error = await failure(safeFetch(`http://127.0.0.1:${port}/x`, { env: {} }))
    expect(error.message).toBe(
      `refused to fetch http://127.0.0.1:${port}/x: loopback address; set SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1 to allow private hosts`,
    )
    const named = await failure(safeFetch(`http://localhost:${port}/x`, { env: {} }))
    expect(named.message).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address; set SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1/,
    )
  })

  it.each([
    ['file:///etc/passwd', 'blocked'],
    ['ftp://ftp.example.com/pub/file.txt', 'blocked'],
    ['data:text/html,<script>alert(1)</script>', 'blocked'],
    ['javascript:alert(document.cookie)', 'blocked'],
    ['gopher://127.0.0.1:6379/_FLUSHALL', 'blocked'],
    ['ws://example.com/socket', 'blocked'],
    ['not a url', 'bad_url'],
    ['//example.com/no-scheme', 'bad_url'],
    ['http://', 'bad_url'],
    ['', 'bad_url'],
  ])('%s is refused as %s', async (url, kind) => {
    expect(await failure(safeFetch(url, open))).toMatchObject({ kind, retryable: false })
  })

  it.each([
    ['the metadata service', 'http://169.254.169.254/latest/meta-data/'],
    ['the metadata service by decimal IP', 'http://2852039166/computeMetadata/v1/'],
    ['a file URL', 'file:///etc/passwd'],
    ['localhost', () => `http://localhost:${port}/pages/article`],
    ['IPv6 loopback', () => `http://[::1]:${port}/pages/article`],
    ['an octal loopback spelling', () => `http://0177.0.0.2:${port}/pages/article`],
    ['a hex short loopback spelling', () => `http://0x7f.0x2:${port}/pages/article`],
    ['a private network', 'http://192.168.0.1/'],
  ])('a redirect to %s is refused even from an allowed host', async (_name, target) => {
    const to = typeof target === 'function' ? target() : target
    const error = await failure(safeFetch(redirectTo(to), { allowHosts: ['127.0.0.1'], env: {} }))
    expect(error.kind).toBe('blocked')
    expect(emu.count('pages')).toBe(1)
  })

  it('refuses a host name whose DNS answer is private', async () => {
    const error = await failure(
      safeFetch('http://intranet.example/', { env: {}, lookup: async () => [{ address: '10.1.2.3', family: 4 }] }),
    )
    expect(error.kind).toBe('blocked')
    expect(error.message).toContain('intranet.example resolves to 10.1.2.3, a private address')
  })

  it('refuses a mixed DNS answer (a rebinding setup) even if the first address is public', async () => {
    const lookup = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::ffff:169.254.169.254', family: 6 },
    ]
    expect(await failure(safeFetch('http://rebind.example/', { env: {}, lookup }))).toMatchObject({ kind: 'blocked' })
  })

  it.each([
    ['unset', {}],
    ['"0"', { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '0' }],
    ['"off"', { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: 'off' }],
    ['"false"', { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: 'false' }],
  ])('the opt-in variable %s does not lift the check', async (_name, env) => {
    expect(await failure(safeFetch(`http://127.0.0.1:${port}/pages/article`, { env }))).toMatchObject({
      kind: 'blocked',
      message: expect.stringMatching(/; set SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1 to allow private hosts$/),
    })
  })

  // Read as every switch of the house is: a word that is neither on nor off is never taken for either in silence.
  it.each(['yes', '2', 'enabled'])(
    'the opt-in variable "%s" leaves the check on, and the refusal names it',
    async (value) => {
      const env = { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: value }
      expect(await failure(safeFetch(`http://127.0.0.1:${port}/pages/article`, { env }))).toMatchObject({
        kind: 'blocked',
        message: `refused to fetch http://127.0.0.1:${port}/pages/article: loopback address; SEARCH_LAYER_ALLOW_PRIVATE_HOSTS="${value}" is not allowed; use on or off (on allows private hosts)`,
      })
    },
  )

  it('allowPrivateHosts: false wins over the environment', async () => {
    const env = { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1' }
    expect(
      await failure(safeFetch(`http://127.0.0.1:${port}/pages/article`, { env, allowPrivateHosts: false })),
    ).toMatchObject({ kind: 'blocked' })
  })
})

describe('SSRF guard: the opt-in', () => {
  it.each(['127.0.0.1', '2130706433', '0x7f.1', '0177.0.0.1', '127.1', 'localhost'])(
    'SEARCH_LAYER_ALLOW_PRIVATE_HOSTS=1 lets http://%s through',
    async (host) => {
      const res = await safeFetch(`http://${host}:${port}/pages/article`, {
        env: { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: '1' },
      })
      expect(res.status).toBe(200)
      expect(res.text).toContain('Structured concurrency')
    },
  )

  it.each(['on', 'true', 'TRUE', ' 1 '])(
    'SEARCH_LAYER_ALLOW_PRIVATE_HOSTS="%s" is on, as in every switch',
    async (value) => {
      const res = await safeFetch(`http://127.0.0.1:${port}/pages/article`, {
        env: { SEARCH_LAYER_ALLOW_PRIVATE_HOSTS: value },
      })
      expect(res.status).toBe(200)
    },
  )

  it('allowPrivateHosts: true lets IPv6 loopback through', async () => {
    const base = await serve(
      (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello over ::1'),
      '::1',
    )
    expect((await safeFetch(`${base}/`, open)).text).toBe('hello over ::1')
  })

  it('follows a redirect to another private host only with the opt-in', async () => {
    const target = `http://localhost:${port}/pages/article`
    expect(await failure(safeFetch(redirectTo(target), { allowHosts: ['127.0.0.1'], env: {} }))).toMatchObject({
      kind: 'blocked',
    })
    const res = await safeFetch(redirectTo(target), open)
    expect(res).toMatchObject({ status: 200, finalUrl: target, redirects: [target] })
  })

  it('allowHosts exempts exactly the listed host', async () => {
    const res = await safeFetch(`http://127.0.0.1:${port}/pages/article`, { allowHosts: ['127.0.0.1'], env: {} })
    expect(res.status).toBe(200)
    expect(
      await failure(safeFetch(`http://localhost:${port}/pages/article`, { allowHosts: ['127.0.0.1'], env: {} })),
    ).toMatchObject({ kind: 'blocked' })
  })
})

describe('connects to the vetted address', () => {
  it('resolves once per hop and sends the request to the checked address with the original Host', async () => {
    const asked: string[] = []
    const lookup = async (hostname: string) => {
      asked.push(hostname)
      // A rebinding resolver would answer differently the second time; the connection must never ask again.
      return asked.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }]
    }
    const res = await safeFetch(`http://pinned.test:${port}/pages/article`, { ...open, lookup })
    expect(res.status).toBe(200)
    expect(asked).toEqual(['pinned.test'])
    expect(emu.requests.at(-1)?.headers.host).toBe(`pinned.test:${port}`)
  })

  it('re-resolves and re-checks the host of every redirect hop', async () => {
    const asked: string[] = []
    const lookup = async (hostname: string) => {
      asked.push(hostname)
      return [{ address: '127.0.0.1', family: 4 }]
    }
    const first = `http://first.test:${port}/pages/redirect?to=${encodeURIComponent(`http://second.test:${port}/pages/article`)}`
    const res = await safeFetch(first, { ...open, lookup })
    expect(res.finalUrl).toBe(`http://second.test:${port}/pages/article`)
    expect(asked).toEqual(['first.test', 'second.test'])
    await expect(safeFetch(first, { allowHosts: ['first.test'], env: {}, lookup })).rejects.toMatchObject({
      kind: 'blocked',
    })
  })

  it('reports a name that does not resolve as a network error', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })
    }
    expect(await failure(safeFetch('http://nowhere.invalid/', { ...open, lookup }))).toMatchObject({
      kind: 'network',
      retryable: false,
    })
  })
})

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])('follows a %i and reports the chain', async (status) => {
    const res = await safeFetch(redirectTo('/pages/article', status), open)
    expect(res).toMatchObject({
      status: 200,
      url: redirectTo('/pages/article', status),
      finalUrl: `${emu.urls.pages}/article`,
    })
    expect(res.redirects).toEqual([`${emu.urls.pages}/article`])
  })

  it('follows five redirects and refuses the sixth', async () => {
    let url = `${emu.urls.pages}/article`
    for (let i = 0; i < 5; i++) url = redirectTo(url)
    expect((await safeFetch(url, open)).redirects).toHaveLength(5)
    const error = await failure(safeFetch(redirectTo(url), open))
    expect(error).toMatchObject({ kind: 'http', status: 302 })
    expect(error.message).toContain('more than 5 redirects')
    expect(
      await failure(safeFetch(redirectTo(`${emu.urls.pages}/article`), { ...open, maxRedirects: 0 })),
    ).toMatchObject({ kind: 'http' })
  })

  it('drops credentials on a cross-origin redirect but keeps other headers', async () => {
    const target = `http://localhost:${port}/pages/article`
    await safeFetch(redirectTo(target), {
      ...open,
      headers: { authorization: 'Bearer abcdefghijkl', 'x-trace': 't1', host: 'evil.example' },
    })
    const [first, second] = emu.requests
    expect(first?.headers.authorization).toBe('Bearer abcdefghijkl')
    expect(first?.headers.host).toBe(`127.0.0.1:${port}`)
    expect(second?.headers.authorization).toBeUndefined()
    expect(second?.headers['x-trace']).toBe('t1')
  })
})

describe('size cap', () => {
  it('stops a body that never ends', async () => {
    const started = Date.now()
    const error = await failure(safeFetch(`${emu.urls.pages}/endless`, { ...open, maxBytes: 256 * 1024 }))
    expect(error).toMatchObject({ kind: 'too_large', status: 200, retryable: false })
    expect(error.message).toContain('262144-byte limit on the wire')
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('stops the endless body at the default 5 MiB cap', async () => {
    expect(await failure(safeFetch(`${emu.urls.pages}/endless`, open))).toMatchObject({ kind: 'too_large' })
  })

  it('refuses a declared Content-Length over the cap without reading it', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) })
      res.write('<html>')
    })
    expect(await failure(safeFetch(base, { ...open, maxBytes: 1024 * 1024 }))).toMatchObject({ kind: 'too_large' })
  })

  it('accepts a body of exactly maxBytes', async () => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(1000)))
    expect((await safeFetch(base, { ...open, maxBytes: 1000 })).bytes).toBe(1000)
    expect(await failure(safeFetch(base, { ...open, maxBytes: 999 }))).toMatchObject({ kind: 'too_large' })
  })

  // 64 MiB of zeros. Brotli at quality 5 packs them into ~100 bytes in ~80 ms; its default (11) took 2.7 s, past
  // 20 s on a loaded host, for the same bomb. The deflate formats at level 1 are still ~290 KB, well under 1 MiB.
  const zeros = Buffer.alloc(64 * 1024 * 1024)
  it.each([
    ['gzip', () => gzipSync(zeros, { level: 1 })],
    ['deflate', () => deflateSync(zeros, { level: 1 })],
    ['deflate (raw)', () => deflateRawSync(zeros, { level: 1 })],
    ['br', () => brotliCompressSync(zeros, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })],
  ])('stops a %s bomb at the cap after decompression', async (name, compress) => {
    const bomb = compress()
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const base = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': name.split(' ')[0] as string }).end(bomb),
    )
    const error = await failure(safeFetch(base, { ...open, maxBytes: 2 * 1024 * 1024 }))
    expect(error.kind).toBe('too_large')
    expect(error.message).toContain('after decompression')
  })
})

describe('decompression', () => {
  const page =
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Zipped</title></head><body><p>Grüße aus dem Archiv — 压缩</p></body></html>'
  it.each([
    ['gzip', gzipSync(page)],
    ['x-gzip', gzipSync(page)],
    ['deflate', deflateSync(page)],
    ['deflate', deflateRawSync(page)],
    ['br', brotliCompressSync(page)],
    ['deflate, gzip', gzipSync(deflateSync(page))],
    ['identity', Buffer.from(page)],
  ])('decodes Content-Encoding %s', async (encoding, body) => {
    let acceptEncoding: string | undefined
    const base = await serve((req, res) => {
      acceptEncoding = req.headers['accept-encoding']
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding }).end(body)
    })
    const res = await safeFetch(base, open)
    expect(res.text).toBe(page)
    expect(res.bytes).toBe(Buffer.byteLength(page))
    expect(acceptEncoding).toBe('gzip, deflate, br')
  })

  it('refuses an encoding it cannot decode', async () => {
    const base = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'zstd' }).end('x'),
    )
    expect(await failure(safeFetch(base, open))).toMatchObject({ kind: 'unsupported_type' })
  })

  it('reports a corrupt gzip body as a non-retryable network error', async () => {
    const base = await serve((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
        .end(Buffer.from('this is not gzip at all')),
    )
    expect(await failure(safeFetch(base, open))).toMatchObject({ kind: 'network', retryable: false })
  })
})

describe('content types', () => {
  it('refuses a binary body', async () => {
    const error = await failure(safeFetch(`${emu.urls.pages}/binary`, open))
    expect(error).toMatchObject({ kind: 'unsupported_type', status: 200 })
    expect(error.message).toContain('application/octet-stream')
  })

  it.each([
    ['text/html; charset=utf-8', true],
    ['TEXT/HTML', true],
    ['application/xhtml+xml', true],
    ['text/plain', true],
    ['text/markdown; charset=utf-8', true],
    ['application/json', true],
    ['application/ld+json', true],
    ['application/vnd.api+json', true],
    ['application/xml', true],
    ['text/xml', true],
    ['application/rss+xml', true],
    ['application/atom+xml', true],
    ['image/png', false],
    ['application/pdf', true],
    ['application/zip', false],
    ['video/mp4', false],
    ['application/javascript', false],
    ['text/css', false],
    ['application/json+evil/x', false],
  ])('%s allowed: %s', async (contentType, allowed) => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': contentType }).end('{}'))
    if (allowed) expect((await safeFetch(base, open)).contentType).toBe(contentType.split(';')[0]?.toLowerCase())
    else expect(await failure(safeFetch(base, open))).toMatchObject({ kind: 'unsupported_type' })
  })

  it('reads a PDF as bytes: no text decoded, charset binary; a .pdf URL served as a download is a PDF', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< >>\nendobj\n', 'latin1')
    const base = await serve((req, res) =>
      res
        .writeHead(200, { 'content-type': req.url === '/paper' ? 'application/pdf' : 'application/octet-stream' })
        .end(pdf),
    )
    for (const path of ['/paper', '/files/Report.PDF']) {
      const got = await safeFetch(`${base}${path}`, open)
      expect(got).toMatchObject({ contentType: 'application/pdf', charset: 'binary', text: '', bytes: pdf.length })
      expect(got.body.equals(pdf)).toBe(true)
    }
    // The .pdf name alone is not enough: octet-stream elsewhere stays refused.
    expect(await failure(safeFetch(`${base}/files/report`, open))).toMatchObject({ kind: 'unsupported_type' })
  })

  it('takes a custom allow-list', async () => {
    const base = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/css' }).end('body{}'))
    expect((await safeFetch(base, { ...open, allowedContentTypes: ['text/*'] })).text).toBe('body{}')
    expect(
      await failure(safeFetch(`${emu.urls.pages}/article`, { ...open, allowedContentTypes: ['application/json'] })),
    ).toMatchObject({ kind: 'unsupported_type' })
  })

  it.each([
    ['<!doctype html><title>x</title>', 'text/html'],
    ['  <html><body>hi</body></html>', 'text/html'],
    ['{"a":[1,2]}', 'application/json'],
    ['just words\nand lines', 'text/plain'],
    ['%PDF-1.7\n%\xe2\xe3\n1 0 obj', 'application/pdf'],
  ])('sniffs an unlabelled body %j as %s', async (body, type) => {
    const base = await serve((_req, res) => {
      res.removeHeader('content-type')
      res.writeHead(200).end(body)
    })
    expect((await safeFetch(base, open)).contentType).toBe(type)
  })

  it('refuses an unlabelled binary body', async () => {
    const base = await serve((_req, res) =>
      res.writeHead(200).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
    )
    expect(await failure(safeFetch(base, open))).toMatchObject({ kind: 'unsupported_type' })
  })
})

describe('HTTP status, timeouts and cancellation', () => {
  it('a 404 is an http error with the status', async () => {
    expect(await failure(safeFetch(`${emu.urls.pages}/not-found`, open))).toMatchObject({
      kind: 'http',
      status: 404,
      retryable: false,
    })
  })

  it.each([429, 500, 502, 503])('a %i is a retryable http error', async (status) => {
    emu.fault('pages', { status, times: 1 })
    expect(await failure(safeFetch(`${emu.urls.pages}/article`, open))).toMatchObject({
      kind: 'http',
      status,
      retryable: true,
    })
  })

  it('times out a server that never answers', async () => {
    emu.fault('pages', { hang: true, times: 1 })
    const started = Date.now()
    const error = await failure(safeFetch(`${emu.urls.pages}/article`, { ...open, timeoutMs: 200 }))
    expect(error).toMatchObject({ kind: 'timeout', retryable: true })
    expect(error.message).toContain('200 ms')
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('times out a body that trickles forever', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const timer = setInterval(() => res.write('.'), 20)
      res.on('close', () => clearInterval(timer))
    })
    expect(await failure(safeFetch(base, { ...open, timeoutMs: 200 }))).toMatchObject({ kind: 'timeout' })
  })

  it('honours the caller signal as a non-retryable cancellation', async () => {
    emu.fault('pages', { hang: true, times: 1 })
    const controller = new AbortController()
    const before = emu.count('pages')
    const pending = safeFetch(`${emu.urls.pages}/article`, { ...open, signal: controller.signal })
    // Aborted once the emulator holds the call, which spends the one hang: after a fixed 50 ms, a loaded machine
    // could abort first and leave the hang armed for a later case.
    await vi.waitFor(() => expect(emu.count('pages')).toBeGreaterThan(before))
    controller.abort()
    const error = await failure(pending)
    expect(error).toMatchObject({ kind: 'timeout', retryable: false })
    expect(error.message).toContain('cancelled')
    expect(
      await failure(safeFetch(`${emu.urls.pages}/article`, { ...open, signal: AbortSignal.abort() })),
    ).toMatchObject({ kind: 'timeout', retryable: false })
  })

  it('a refused connection is a retryable network error', async () => {
    const base = await serve(() => {})
    const closed = servers.pop() as Server
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    expect(await failure(safeFetch(base, open))).toMatchObject({ kind: 'network', retryable: true })
  })

  it('a reset connection is a network error', async () => {
    emu.fault('pages', { reset: true, times: 1 })
    expect(await failure(safeFetch(`${emu.urls.pages}/article`, open))).toMatchObject({ kind: 'network' })
  })
})

describe('the fetched resource', () => {
  it('decodes the GBK page with the charset from its meta tag', async () => {
    const res = await safeFetch(`${emu.urls.pages}/zh-gbk`, open)
    expect(res).toMatchObject({ status: 200, contentType: 'text/html', charset: 'gbk', redirects: [] })
    expect(res.text).toContain('<title>Rust 异步编程实战：从零实现一个异步运行时 - 技术博客</title>')
    expect(res.body.length).toBe(res.bytes)
  })

  it('returns headers, the body and the text', async () => {
    const res = await safeFetch(`${emu.urls.pages}/article`, { ...open, userAgent: 'test-agent/1.0' })
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.charset).toBe('utf-8')
    expect(res.body.toString('utf8')).toBe(res.text)
    expect(emu.requests.at(-1)?.headers['user-agent']).toBe('test-agent/1.0')
  })

  it('never puts URL credentials on the wire or in errors', async () => {
    const error = await failure(safeFetch(`http://user:hunter2secret@127.0.0.1:${port}/pages/article`, { env: {} }))
    expect(error.message).not.toContain('hunter2secret')
    await safeFetch(`http://user:hunter2secret@127.0.0.1:${port}/pages/article`, open)
    expect(emu.requests.at(-1)?.headers.authorization).toBeUndefined()
  })

  it('scrubs key-like query values from error messages', async () => {
    const error = await failure(safeFetch('http://10.0.0.1/feed?api_key=abcdef123456', { env: {} }))
    expect(error.message).not.toContain('abcdef123456')
    expect(error.url).not.toContain('abcdef123456')
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ kind: 'blocked', retryable: false })
  })
})
