import { searchRequestSchemaFor } from './request.js'

/**
 * What a caller asks the search layer for, accepting any well-formed provider id in `sources` (the layer checks it).
 * Its own module: a layer validates with the schema for its providers (`searchRequestSchemaFor`), so a bundle that
 * only searches leaves this one out instead of building it at load.
 */
export const SearchRequestSchema = searchRequestSchemaFor()
