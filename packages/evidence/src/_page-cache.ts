import { z } from 'zod'

/**
 * Where read pages are kept between searches: the engine's `CacheStore` (memory, disk, Redis) fits as it is. A
 * value that does not parse as a cached page is a miss.
 */
export interface PageCache {
  get(key: string): Promise<unknown | undefined>
  set(key: string, value: unknown, ttlMs: number): Promise<void>
}

/** The part of a read page that is kept: what passages and reports need, not its links or plain text. */
const CachedPageSchema = z.object({
  title: z.string().nullable(),
  markdown: z.string(),
  degraded: z.string().optional(),
})
export type CachedPage = z.infer<typeof CachedPageSchema>

/** The cache key of a page: `page:v1:<url>`, the URL as the search result gave it. */
export function pageCacheKey(url: string): string {
  return `page:v1:${url}`
}

/** The cached page, or undefined for a miss, an entry of another shape, or a store that fails. */
export async function cachedPage(cache: PageCache, url: string): Promise<CachedPage | undefined> {
  try {
    const parsed = CachedPageSchema.safeParse(await cache.get(pageCacheKey(url)))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Keeps a read page; a store that fails makes the next search slower, not this one wrong. */
export function keepPage(cache: PageCache, url: string, page: CachedPage, ttlMs: number): void {
  const value: CachedPage = {
    title: page.title,
    markdown: page.markdown,
    ...(page.degraded && { degraded: page.degraded }),
  }
  cache.set(pageCacheKey(url), value, ttlMs).catch(() => undefined)
}
