import { expectTypeOf, test } from 'vitest'
import type { z } from 'zod'
import type { KeylessOnlyNotice, OperatorReport, ProviderReport, SearchResponse, SearchResultOut } from './response.js'
import type {
  KeylessOnlyNoticeSchema,
  OperatorReportSchema,
  ProviderReportSchema,
  SearchResponseSchema,
  SearchResultOutSchema,
} from './schemas.js'

test('each schema is its response type', () => {
  expectTypeOf<z.infer<typeof SearchResponseSchema>>().toEqualTypeOf<SearchResponse>()
  expectTypeOf<z.infer<typeof SearchResultOutSchema>>().toEqualTypeOf<SearchResultOut>()
  expectTypeOf<z.infer<typeof OperatorReportSchema>>().toEqualTypeOf<OperatorReport>()
  expectTypeOf<z.infer<typeof ProviderReportSchema>>().toEqualTypeOf<ProviderReport>()
  expectTypeOf<z.infer<typeof KeylessOnlyNoticeSchema>>().toEqualTypeOf<KeylessOnlyNotice>()
})
