// Provisions the system programs the test suite needs, before `pnpm check` runs anything else. On a Debian or
// Ubuntu machine as root, a missing program is installed from Debian's packages; anywhere else the run stops
// with one line saying what to install. Each need names the variable that points at a program installed
// elsewhere, so nothing here is required of a machine that already has it.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** What the tests run for real, and why. */
const NEEDS = [
  {
    program: 'redis-server',
    variable: 'REDIS_SERVER_BIN',
    debian: 'redis-server',
    why: "the server's scale-out tests run against a real Redis",
    other: 'macOS: brew install redis',
    // The package may start its own service; the tests start their own instances on free ports.
    afterInstall: ['service', 'redis-server', 'stop'],
  },
  {
    program: 'chromium',
    variable: 'CHROMIUM_BIN',
    debian: 'chromium',
    why: "the web app's end-to-end tests and page-fetch's rendering tests drive a real headless Chromium",
    other: 'macOS: brew install --cask chromium',
  },
]

function onPath(program) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue
    try {
      accessSync(join(dir, program), constants.X_OK)
      return true
    } catch {}
  }
  return false
}

const isPresent = (need) => (process.env[need.variable] ? existsSync(process.env[need.variable]) : onPath(need.program))

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  return result.status === 0
}

const canInstall = process.platform === 'linux' && process.getuid?.() === 0 && onPath('apt-get')

const missing = NEEDS.filter((need) => !isPresent(need))
if (missing.length > 0 && !canInstall) {
  for (const need of missing)
    console.error(
      `provision: ${need.program} is not installed and ${need.why}: install it (Debian/Ubuntu: apt-get install -y ${need.debian}; ${need.other}) or set ${need.variable} to its path`,
    )
  process.exit(1)
}
if (missing.length > 0) {
  const packages = missing.map((need) => need.debian)
  console.log(`provision: installing ${packages.join(', ')} (Debian packages)`)
  if (!run('apt-get', ['update', '-qq']) || !run('apt-get', ['install', '-y', '-qq', ...packages])) {
    console.error(`provision: apt-get could not install ${packages.join(', ')}; install them by hand and run again`)
    process.exit(1)
  }
  for (const need of missing) if (need.afterInstall) run(need.afterInstall[0], need.afterInstall.slice(1))
  const still = missing.filter((need) => !isPresent(need))
  if (still.length > 0) {
    console.error(`provision: ${still.map((n) => n.program).join(', ')} still not on PATH after installing`)
    process.exit(1)
  }
}
