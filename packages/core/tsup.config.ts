import { libraryConfig } from '../../tsup.library'

// One entry per subpath (package.json `exports`).
export default libraryConfig({
  index: 'src/index.ts',
  'http/index': 'src/http/index.ts',
  'config/index': 'src/config/index.ts',
  'testing/index': 'src/testing/index.ts',
  'text/index': 'src/text/index.ts',
})
