// The licence notices a bundle owes the packages bundled into it. MIT, ISC and BSD licences ask that their copyright
// notice travel with every copy, and a bundle is a copy: a build that inlines a dependency (page-fetch inlines its
// patched linkedom) writes THIRD-PARTY-NOTICES.md beside its output from esbuild's metafile, which lists every file
// that went in. Run by a package's tsup `onSuccess`; also `node scripts/third-party-notices.mjs <metafile.json> <out.md>`.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i

/** The package directory holding `file` (the last `node_modules/<name>` or `node_modules/@scope/<name>` in its path). */
export function packageDirOf(file) {
  const normalized = file.replaceAll('\\', '/')
  const at = normalized.lastIndexOf('node_modules/')
  if (at === -1) return undefined
  const rest = normalized.slice(at + 'node_modules/'.length).split('/')
  const nameParts = rest[0]?.startsWith('@') ? 2 : 1
  if (rest.length <= nameParts) return undefined
  return normalized.slice(0, at) + ['node_modules', ...rest.slice(0, nameParts)].join('/')
}

/** The third-party packages of a metafile's inputs (paths relative to `root`), one entry per name and version. */
export function bundledPackages(metafile, root) {
  const packages = new Map()
  for (const input of Object.keys(metafile.inputs ?? {})) {
    const dir = packageDirOf(input)
    if (!dir) continue
    const absolute = resolve(root, dir)
    const manifestPath = join(absolute, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    const key = `${manifest.name}@${manifest.version}`
    if (!packages.has(key))
      packages.set(key, { name: manifest.name, version: manifest.version, manifest, dir: absolute })
  }
  return [...packages.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
}

/** The package's licence, and its NOTICE file too when it has one (Apache-2.0 asks that both travel). */
function licenceText(pkg) {
  const files = readdirSync(pkg.dir)
    .filter((name) => LICENCE_FILE.test(name))
    .sort()
  if (files.length > 0) return files.map((name) => readFileSync(join(pkg.dir, name), 'utf8').trim()).join('\n\n')
  const author = typeof pkg.manifest.author === 'string' ? pkg.manifest.author : pkg.manifest.author?.name
  return `${licenceName(pkg)} licence${author ? `, copyright ${author}` : ''} (the package ships no licence file).`
}

function licenceName(pkg) {
  const licence = pkg.manifest.license ?? pkg.manifest.licenses?.[0]?.type
  return typeof licence === 'string' ? licence : (licence?.type ?? 'unstated')
}

/** The notices document for `packages` bundled into `subject`. */
export function renderNotices(subject, packages) {
  const lines = [
    '# Third-party notices',
    '',
    `${subject} bundles code from the packages below; each one's licence follows.`,
    '',
  ]
  for (const pkg of packages) {
    lines.push(`## ${pkg.name} ${pkg.version} (${licenceName(pkg)})`, '', '```text', licenceText(pkg), '```', '')
  }
  return `${lines.join('\n').trimEnd()}\n`
}

/** Writes `outFile` for the bundle `metafilePath` describes (its inputs are relative to the working directory). */
export function writeThirdPartyNotices(metafilePath, outFile, subject, root = process.cwd()) {
  const metafile = JSON.parse(readFileSync(metafilePath, 'utf8'))
  const packages = bundledPackages(metafile, root)
  writeFileSync(outFile, renderNotices(subject, packages))
  return packages
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [metafilePath, outFile] = process.argv.slice(2)
  if (!metafilePath || !outFile) {
    console.error('usage: node scripts/third-party-notices.mjs <metafile.json> <out.md>')
    process.exit(2)
  }
  const subject = JSON.parse(readFileSync(join(dirname(resolve(outFile)), '..', 'package.json'), 'utf8')).name
  const packages = writeThirdPartyNotices(metafilePath, outFile, subject)
  console.log(`${outFile}: ${packages.length} packages`)
}
