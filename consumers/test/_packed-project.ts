import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ROOT, publishedPackages } from './_published'

const run = promisify(execFile)

/** Where packed projects live between runs: a rerun with the same tarballs and dependencies installs nothing. */
const CACHE = join(ROOT, 'node_modules/.cache/consumers')
/** The scripts each project runs, as a user's own code would (copied into the project). */
const CLIENTS = join(ROOT, 'consumers/test/clients')

/** A temporary npm project with packed search-layer packages and third-party clients installed. */
export interface PackedProject {
  dir: string
  /** Runs `node <script>` (a file of test/clients/) in the project; rejects with its output when it fails. */
  node(script: string, options?: NodeRunOptions): Promise<string>
  /** Starts `node <script>` without waiting: its first stdout line, then `stop()` (closes its stdin). */
  start(script: string, options?: NodeRunOptions): Promise<StartedScript>
}

interface NodeRunOptions {
  env?: Record<string, string | undefined>
  args?: string[]
  /** A Node binary other than this one (AI SDK 7 needs Node 22). */
  nodeBinary?: string
}

export interface StartedScript {
  firstLine: string
  /** Writes a line to the script's stdin. */
  send(line: string): void
  /** What the script has printed so far on stdout. */
  stdout(): string
  /** What the script has printed so far on stderr. */
  stderr(): string
  /** Closes stdin and waits for the exit code. */
  stop(): Promise<number | null>
}

let packing: Promise<Map<string, string>> | undefined

/**
 * `pnpm pack` of every published package into `dest` (an empty directory): the tarballs `pnpm publish` (and so
 * `changeset publish`) uploads, with only each package's `files` and `workspace:` ranges rewritten to versions.
 * Name → tarball path. About 8 s and 6 CPU-s for all of them, where `npm pack` took 55 s and 35 CPU-s.
 */
export async function packPublished(dest: string): Promise<Map<string, string>> {
  const filters = publishedPackages().flatMap((p) => ['--filter', p.name])
  await run('npx', ['-y', 'pnpm@10', ...filters, 'pack', '--pack-destination', dest], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
  const byName = new Map<string, string>()
  for (const file of readdirSync(dest)) {
    // search-layer-core-0.1.0.tgz: the manifest inside says which package it is; the name is enough here.
    const pkg = publishedPackages().find((p) => file === `${tarballStem(p.name)}-${version(p.dir)}.tgz`)
    if (pkg) byName.set(pkg.name, join(dest, file))
  }
  return byName
}

/** `packPublished` once per test run, into node_modules/.cache/consumers/tarballs. */
function packWorkspace(): Promise<Map<string, string>> {
  packing ??= (async () => {
    const dest = join(CACHE, 'tarballs')
    await rm(dest, { recursive: true, force: true })
    mkdirSync(dest, { recursive: true })
    return packPublished(dest)
  })()
  return packing
}

const tarballStem = (name: string) => name.replace(/^@/, '').replace('/', '-')
const version = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version

/**
 * What a package's tarball is made of: its package.json and the files its `files` field publishes. Hashed instead
 * of the tarball, which `pnpm pack` writes with the rewritten dependencies in a different order from run to run;
 * and so an unchanged build needs no packing at all.
 */
function hashPackage(hash: ReturnType<typeof createHash>, dir: string): void {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { files?: string[] }
  const visit = (path: string) => {
    if (!existsSync(path)) return
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry))
      return
    }
    hash.update(path.slice(dir.length)).update(readFileSync(path))
  }
  for (const entry of ['package.json', ...(manifest.files ?? [])]) visit(join(dir, entry))
}

/** `names` and every search-layer package they depend on, through dependencies and peer dependencies. */
function workspaceClosure(names: string[]): string[] {
  const byName = new Map(publishedPackages().map((p) => [p.name, p.dir]))
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name) || !byName.has(name)) return
    seen.add(name)
    const manifest = JSON.parse(readFileSync(join(byName.get(name) as string, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      peerDependencies?: Record<string, string>
    }
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) visit(dep)
  }
  for (const name of names) visit(name)
  return [...seen].sort()
}

/**
 * An npm project named `name` with the packed `packages` (and the search-layer packages they need) and
 * `dependencies` from the registry, installed by npm as a user would. Cached by what the tarballs are made of and
 * the dependency list: a rerun after no rebuild packs and installs nothing.
 */
export async function packedProject(
  name: string,
  packages: string[],
  dependencies: Record<string, string>,
): Promise<PackedProject> {
  const local = workspaceClosure(packages)
  const dirs = new Map(publishedPackages().map((p) => [p.name, p.dir]))
  const hash = createHash('sha256').update(JSON.stringify(dependencies))
  for (const pkg of local) hashPackage(hash.update(pkg), dirs.get(pkg) as string)
  const dir = join(CACHE, 'projects', name)
  const key = hash.digest('hex')
  const marker = join(dir, '.installed')
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== key) {
    const tarballs = await packWorkspace()
    // Not rmSync: an old node_modules takes long enough to delete on a loaded machine to stall vitest's worker.
    await rm(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const tarball = (pkg: string) => {
      const path = tarballs.get(pkg)
      if (!path) throw new Error(`${pkg} was not packed`)
      return `file:${path}`
    }
    const deps = Object.fromEntries(local.map((pkg) => [pkg, tarball(pkg)]))
    const manifest = {
      name: `consumer-${name}`,
      private: true,
      type: 'module',
      dependencies: { ...deps, ...dependencies },
    }
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    })
    writeFileSync(marker, key)
  }
  cpSync(CLIENTS, dir, { recursive: true })
  return projectAt(dir)
}

function projectAt(dir: string): PackedProject {
  const launch = (script: string, options: NodeRunOptions) =>
    spawn(options.nodeBinary ?? process.execPath, [script, ...(options.args ?? [])], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  return {
    dir,
    node: (script, options = {}) =>
      new Promise((resolve, reject) => {
        const child = launch(script, options)
        let out = ''
        let err = ''
        child.stdout.on('data', (chunk) => (out += chunk))
        child.stderr.on('data', (chunk) => (err += chunk))
        child.stdin.end()
        child.on('close', (code) =>
          code === 0 ? resolve(out) : reject(new Error(`${script} exited with ${code}:\n${out}\n${err}`)),
        )
      }),
    start: (script, options = {}) =>
      new Promise((resolve, reject) => {
        const child = launch(script, options)
        let out = ''
        let err = ''
        let started = false
        const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
        child.stderr.on('data', (chunk) => (err += chunk))
        child.stdout.on('data', (chunk) => {
          out += chunk
          const newline = out.indexOf('\n')
          if (started || newline === -1) return
          started = true
          resolve({
            firstLine: out.slice(0, newline),
            send: (line) => child.stdin.write(`${line}\n`),
            stdout: () => out,
            stderr: () => err,
            stop: () => {
              child.stdin.end()
              return exited
            },
          })
        })
        void exited.then((code) => {
          if (!started) reject(new Error(`${script} exited with ${code} before printing a line:\n${out}\n${err}`))
        })
      }),
  }
}
