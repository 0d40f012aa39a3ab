import { isAbsolute } from 'node:path'

// npm's rules for a package name (validate-npm-package-name, new packages): lower case, URL-safe, no leading dot or
// underscore, at most 214 characters, optionally under one @scope. No other "/", so no "..", no path.
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/
const NPM_NAME_MAX = 214

/** Whether a `plugins` entry is one the loader accepts: an npm package name or an absolute path. */
export function isPluginSpecifier(specifier: string): boolean {
  return isAbsolute(specifier) || (specifier.length <= NPM_NAME_MAX && NPM_NAME.test(specifier))
}

/** What a `plugins` entry may be, for errors. */
export const PLUGIN_SPECIFIER_ALLOWED =
  'npm package names (like "search-layer-provider-foo" or "@scope/provider-foo") or absolute paths (like "/opt/search-layer/foo.mjs"); relative paths, "..", subpaths and upper-case names are refused'
