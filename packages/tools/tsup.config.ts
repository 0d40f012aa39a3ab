import { libraryConfig } from '../../tsup.library'

export default libraryConfig(['src/index.ts', 'src/ai-sdk.ts', 'src/output-schemas.ts'])
