// The permission check of a config file that holds keys.
import { fileValue } from './_config-file.js'
import type { ConfigFile, ConfigProblem, ConfigService } from './_config-shared.js'

const holdsKeys = (data: ConfigFile | undefined): ConfigService[] =>
  Object.keys(data ?? {}).filter((service) => data !== undefined && fileValue(data, service, 'apiKey') !== undefined)

// Keys in a file others can read are keys shared with every account on the machine.
export function permissionsProblem(
  file: string,
  mode: number,
  data: ConfigFile | undefined,
): ConfigProblem | undefined {
  if (process.platform === 'win32' || (mode & 0o077) === 0) return undefined
  const services = holdsKeys(data)
  if (services.length === 0) return undefined
  return {
    kind: 'file_permissions',
    severity: 'warning',
    message: `Config file ${file} holds keys and can be read by other users (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
    services,
    file,
  }
}
