import { mergeConfig } from 'vitest/config'
import shared from '../../vitest.shared'

// NOTE(eventsource-parser): `ai` (via @ai-sdk/provider-utils) depends on it, and its package exports a "source" condition pointing at .ts
// files; the shared "source" condition selects those, so vite must transform it instead of Node loading it.
export default mergeConfig(shared, { test: { server: { deps: { inline: ['ai', /@ai-sdk\//, 'eventsource-parser'] } } } })
