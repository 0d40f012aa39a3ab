export { runCli, VERSION } from './main.js'
export type { CliIo } from './_io.js'
