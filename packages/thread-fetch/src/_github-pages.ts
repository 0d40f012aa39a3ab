import { z } from 'zod'
import { type Ctx, type GhResponse, ghGet, originOf, sameOrigin } from './_github-client.js'

const PER_PAGE = 100

/**
 * `rel` → URL of a `Link` header (`<url>; rel="next", <url>; rel="last"`). It comes from the network, so each
 * link is cut with indexOf: no pattern that re-reads a run of `<` per character.
 */
function parseLink(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!header) return out
  for (const part of header.split(',')) {
    const open = part.indexOf('<')
    const close = open === -1 ? -1 : part.indexOf('>', open + 1)
    if (close <= open + 1) continue
    const rel = /;\s*rel="([^"]+)"/.exec(part.slice(close + 1))?.[1]
    if (rel) for (const name of rel.trim().split(/\s+/)) out[name] = part.slice(open + 1, close)
  }
  return out
}

function pageOf(url: string | undefined): number | undefined {
  if (!url) return undefined
  try {
    const p = Number(new URL(url).searchParams.get('page'))
    return Number.isInteger(p) && p > 0 ? p : undefined
  } catch {
    return undefined
  }
}

/** A Link target resolved against the URL that sent it (RFC 8288 allows relative ones). */
function resolveLink(target: string, base: string): string | undefined {
  try {
    return new URL(target, base).toString()
  } catch {
    return undefined
  }
}

export interface Paged<T> {
  items: T[]
  /** Items that exist beyond what was read, when known (or at least one more page when only `next` says so). */
  cut: number
}

/**
 * Every page of a list, 100 at a time. When the size is known (the issue's `comments`, or the first page's `last`
 * link) the remaining pages are fetched in parallel; otherwise `next` links are followed one by one.
 */
export async function ghPaged<T>(
  ctx: Ctx,
  path: string,
  schema: z.ZodType<T>,
  maxItems: number,
  knownCount?: number,
): Promise<Paged<T>> {
  const arraySchema = z.array(schema)
  const maxPages = Math.max(1, Math.ceil(maxItems / PER_PAGE))
  const get = (page: number) => ghGet(ctx, path, arraySchema, { per_page: PER_PAGE, page })
  let pages: GhResponse<T[]>[]
  if (knownCount !== undefined) {
    const count = Math.min(maxPages, Math.max(1, Math.ceil(knownCount / PER_PAGE)))
    pages = await Promise.all(Array.from({ length: count }, (_, i) => get(i + 1)))
  } else {
    const first = await get(1)
    const last = pageOf(parseLink(first.headers.link).last)
    const rest = last ? Math.min(last, maxPages) : 1
    pages = [first, ...(await Promise.all(Array.from({ length: Math.max(0, rest - 1) }, (_, i) => get(i + 2))))]
  }
  // The list may have grown since the count was read, or the server gave only `next`: follow it.
  let links = parseLink(pages.at(-1)?.headers.link)
  let answeredBy = pages.at(-1)!.url
  while (links.next && pages.length < maxPages) {
    const nextUrl = resolveLink(links.next, answeredBy)
    if (nextUrl === undefined || !sameOrigin(nextUrl, ctx.baseUrl)) {
      // As with redirects: a next page elsewhere would take the token with it. Stop; `cut` says more exist.
      ctx.warnings.push(
        `GitHub's next page of ${path} is ${nextUrl === undefined ? 'not a URL' : `on another origin (${originOf(nextUrl)})`}; not followed`,
      )
      break
    }
    const next = await ghGet(ctx, nextUrl, arraySchema)
    pages.push(next)
    answeredBy = next.url
    links = parseLink(next.headers.link)
  }
  const all = pages.flatMap((p) => p.data)
  const items = all.slice(0, maxItems)
  const lastPage = pageOf(links.last)
  const known = knownCount ?? (lastPage !== undefined ? Math.max(all.length, (lastPage - 1) * PER_PAGE + 1) : undefined)
  const cut = Math.max(
    all.length - items.length,
    known !== undefined ? known - items.length : 0,
    links.next && !known ? 1 : 0,
  )
  return { items, cut }
}
