// The frame lives in core's text toolkit, so the ask's own tools frame third-party text the same way.
export { untrustedFrame } from '@search-layer/core/text'
export type { UntrustedFrame } from '@search-layer/core/text'
