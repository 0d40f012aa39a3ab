import { libraryConfig } from '../../tsup.library'

// The worker is its own entry: `ExtractPool` starts it from dist/extract-worker.js, beside index.js (the CommonJS
// build starts the same ESM worker).
export default libraryConfig(['src/index.ts', 'src/schemas.ts', 'src/extract-worker.ts'])
