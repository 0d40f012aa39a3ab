import { libraryConfig, withThirdPartyNotices } from '../../tsup.library'

// The worker is its own entry: `ExtractPool` starts it from dist/extract-worker.js, beside index.js (the CommonJS
// build starts the same ESM worker). linkedom is bundled in, with what it imports, so the published package carries
// the workspace's patch to it (patches/linkedom@0.18.12.patch: no listener map per parsed node, a third of the
// extraction's time); the other dependencies stay dependencies.
export default libraryConfig(
  ['src/index.ts', 'src/schemas.ts', 'src/extract-worker.ts'],
  withThirdPartyNotices('@search-layer/page-fetch', { noExternal: ['linkedom'] }),
)
