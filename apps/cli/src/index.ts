export { runCli, VERSION } from './main.js'
export type { CliIo } from './io.js'
