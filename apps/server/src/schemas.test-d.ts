import type { z } from '@hono/zod-openapi'
import type { SearchResponse } from '@search-layer/engine'
import type { ReadablePage } from '@search-layer/page-fetch'
import { expectTypeOf, test } from 'vitest'
import type { ErrorBody } from './error-responses.js'
import type { ErrorBodySchema, ReadablePageSchema, SearchResponseSchema } from './schemas.js'

test('documented response shapes', () => {
  // The first two come from the engine's and page-fetch's own schemas; these only catch a wrong import.
  expectTypeOf<z.infer<typeof SearchResponseSchema>>().toEqualTypeOf<SearchResponse>()
  expectTypeOf<Omit<z.infer<typeof ReadablePageSchema>, 'truncated'>>().toEqualTypeOf<ReadablePage>()
  expectTypeOf<z.infer<typeof ErrorBodySchema>>().toEqualTypeOf<ErrorBody>()
})
