import { expectTypeOf, test } from 'vitest'
import type { z } from 'zod'
import type { PageLink, ReadablePage } from './page.js'
import type { PageLinkSchema, ReadablePageSchema } from './schemas.js'

test('each schema is its type', () => {
  expectTypeOf<z.infer<typeof ReadablePageSchema>>().toEqualTypeOf<ReadablePage>()
  expectTypeOf<z.infer<typeof PageLinkSchema>>().toEqualTypeOf<PageLink>()
})
