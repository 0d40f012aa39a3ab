import { ConfigError } from '@search-layer/core'

const PORT_CODES: Record<string, string> = {
  EADDRINUSE: 'is already in use{on}; stop the other server or pick another port (0 picks a free one)',
  EACCES: 'needs privileges this process lacks{on}; use a port above 1023',
}
const HOST_CODES: Record<string, string> = {
  EADDRNOTAVAIL: 'is not an address of this machine; bind 127.0.0.1, 0.0.0.0 or one of its interface addresses',
  ENOTFOUND: 'does not resolve to an address; give an IP address or a resolvable host name',
  EAI_NONAME: 'does not resolve to an address; give an IP address or a resolvable host name',
  EAI_AGAIN: 'could not be resolved (DNS did not answer); give an IP address instead',
  EAFNOSUPPORT: 'is of an address family this machine does not support; bind 127.0.0.1 or 0.0.0.0',
}

/**
 * Turns a listen failure the user can fix (port taken or privileged, host not local or unresolvable) into a
 * `ConfigError` whose message starts with `port <n>` or `host <h>` and whose `field` is `port` or `host`; any other
 * error comes back unchanged.
 */
export function listenErrorToConfigError(error: unknown, { port, host }: { port: number; host: string }): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (!code) return error
  if (PORT_CODES[code]) {
    const why = PORT_CODES[code].replace('{on}', ` on ${host}`)
    return new ConfigError(`port ${port} ${why} (${code})`, { field: 'port', cause: error })
  }
  if (HOST_CODES[code])
    return new ConfigError(`host ${JSON.stringify(host)} ${HOST_CODES[code]} (${code})`, {
      field: 'host',
      cause: error,
    })
  return error
}
