import { configFileSchema } from './_config-shared.js'

/**
 * The config file's shape (ours and the original skill's `~/.openclaw/credentials/search.json`), for the apps and
 * for anyone checking a file. Its own module: reading a config file builds the schema on first use, so a process that
 * never names this export (a search with no config file) never builds it.
 */
export const ConfigFileSchema = configFileSchema()
