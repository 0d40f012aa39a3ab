import { libraryConfig } from '../../tsup.library'

export default libraryConfig(['src/index.ts', 'src/ref-types.ts'])
