import { mergeConfig } from 'vitest/config'
import shared from '../../vitest.shared'

// AI SDK 5 imports @opentelemetry/api, whose "module" build (picked by the shared "module" condition) uses
// extensionless imports Node cannot load: vite transforms it instead.
export default mergeConfig(shared, { test: { server: { deps: { inline: [/@opentelemetry\/api/, /\/ai@5\./] } } } })
