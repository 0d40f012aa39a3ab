// Scaffolds a workspace package: node scripts/new-package.mjs <dir> <name> "<description>" [dep ...]
import { mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

const [dir, name, description, ...deps] = process.argv.slice(2)
if (!dir || !name || !description) {
  console.error('usage: node scripts/new-package.mjs <dir> <name> "<description>" [dep ...]')
  process.exit(2)
}
const depth = dir.split('/').length
const up = '../'.repeat(depth)
mkdirSync(join(dir, 'src'), { recursive: true })
const pkg = {
  name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  engines: { node: '>=20' },
  exports: { '.': { '@search-layer/source': './src/index.ts', types: './dist/index.d.ts', import: './dist/index.js' } },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist', 'README.md', 'CHANGELOG.md'],
  sideEffects: false,
  scripts: { build: 'tsup', typecheck: 'tsc -p tsconfig.json', test: 'vitest run' },
  dependencies: Object.fromEntries(
    deps.map((d) =>
      d.startsWith('@search-layer/')
        ? [d, 'workspace:^']
        : d.split('@').length > 2 || (!d.startsWith('@') && d.includes('@'))
          ? [d.slice(0, d.lastIndexOf('@')), d.slice(d.lastIndexOf('@') + 1)]
          : [d, '*'],
    ),
  ),
  publishConfig: { access: 'public' },
}
const w = (f, s) => {
  if (!existsSync(join(dir, f))) writeFileSync(join(dir, f), s)
}
w('package.json', JSON.stringify(pkg, null, 2) + '\n')
// As Biome formats it (a short array on one line), so a new package passes `biome check` as written.
w('tsconfig.json', `{\n  "extends": "${up}tsconfig.base.json",\n  "include": ["src", "test", "*.config.ts"]\n}\n`)
w(
  'tsup.config.ts',
  `import { defineConfig } from 'tsup'\n\nexport default defineConfig({\n  entry: ['src/index.ts'],\n  format: ['esm'],\n  dts: true,\n  clean: true,\n  target: 'node20',\n  sourcemap: true,\n})\n`,
)
w('vitest.config.ts', `import shared from '${up}vitest.shared'\n\nexport default shared\n`)
