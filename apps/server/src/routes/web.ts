import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { Context } from 'hono'
import type { AppEnv } from '../request-env.js'
import { createRouter } from './responses.js'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
}
// Scripts and data come from this origin only: thread text rendered by the reader can never load or run anything.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

/**
 * Where the built web app is: `web/` beside the bundle that runs (the server's and the CLI's `dist/`), or the
 * web package's own `dist/` when running from source. Undefined when it was never built.
 */
export function findWebDir(): string | undefined {
  const candidates = [new URL('./web/', import.meta.url), new URL('../../../web/dist/', import.meta.url)]
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate)
    if (existsSync(join(dir, 'index.html'))) return dir
  }
  return undefined
}

interface Asset {
  body: Buffer
  gzip?: Buffer
  type: string
}

/** Every file of the built app, read once: a few hundred KB, served from memory with gzip when asked. */
function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name
      const full = join(dir, rel)
      if (statSync(full).isDirectory()) walk(rel)
      else {
        const body = readFileSync(full)
        const type = TYPES[extname(name)] ?? 'application/octet-stream'
        const compressible = /text|svg|json/.test(type) && body.length > 512
        assets.set(`/${rel}`, { body, type, ...(compressible && { gzip: gzipSync(body, { level: 9 }) }) })
      }
    }
  }
  walk('')
  return assets
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>search-layer</title>
<p>The web app is not built: run <code>npx -y pnpm@10 build</code>. The API is at <a href="/openapi.json">/openapi.json</a>.</p>`

/**
 * Serves the web app at `/` (and its `/assets/*`) without authentication: the page itself holds no data, and asks for
 * a key when the API wants one. Mount it before the authentication middleware.
 */
export function webAppRoutes(dir: string | undefined = findWebDir()) {
  const router = createRouter()
  const assets = dir ? loadAssets(dir) : new Map<string, Asset>()
  const send = (c: Context<AppEnv>, asset: Asset, cache: string) => {
    const gzip = asset.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')
    const headers: Record<string, string> = {
      'content-type': asset.type,
      'cache-control': cache,
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
      ...(asset.type.startsWith('text/html') && { 'content-security-policy': CSP, 'referrer-policy': 'no-referrer' }),
      ...(gzip && { 'content-encoding': 'gzip' }),
    }
    return c.body(new Uint8Array(gzip ? asset.gzip! : asset.body), 200, headers)
  }
  router.get('/', (c) => {
    const index = assets.get('/index.html')
    return index ? send(c, index, 'no-cache') : c.html(NOT_BUILT, 200)
  })
  router.get('/assets/*', (c, next) => {
    const asset = assets.get(c.req.path)
    // Vite names assets by content hash: they never change under the same name.
    return asset ? send(c, asset, 'public, max-age=31536000, immutable') : next()
  })
  for (const [path, asset] of assets)
    if (!path.startsWith('/assets/') && path !== '/index.html') router.get(path, (c) => send(c, asset, 'no-cache'))
  return router
}
