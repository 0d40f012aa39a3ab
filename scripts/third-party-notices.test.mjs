import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { bundledPackages, packageDirOf, writeThirdPartyNotices } from './third-party-notices.mjs'

test('the package directory of a bundled file, scoped and nested under pnpm', () => {
  assert.equal(
    packageDirOf('../../node_modules/.pnpm/linkedom@0.18.12/node_modules/linkedom/esm/index.js'),
    '../../node_modules/.pnpm/linkedom@0.18.12/node_modules/linkedom',
  )
  assert.equal(packageDirOf('node_modules/@scope/pkg/lib/a.js'), 'node_modules/@scope/pkg')
  assert.equal(packageDirOf('src/index.ts'), undefined)
  assert.equal(packageDirOf('node_modules/lonely'), undefined)
})

test('one notice per bundled package and version, with its licence file or its declared licence', () => {
  const root = mkdtempSync(join(tmpdir(), 'notices-'))
  try {
    const write = (dir, manifest, licence) => {
      mkdirSync(join(root, dir, 'lib'), { recursive: true })
      writeFileSync(join(root, dir, 'package.json'), JSON.stringify(manifest))
      if (licence) writeFileSync(join(root, dir, 'LICENSE.md'), licence)
    }
    write('node_modules/zeta', { name: 'zeta', version: '1.0.0', license: 'MIT' }, 'Copyright (c) Zeta Authors')
    writeFileSync(join(root, 'node_modules/zeta/NOTICE'), 'Zeta includes software from Omega.')
    write('node_modules/@a/alpha', { name: '@a/alpha', version: '2.0.0', license: 'ISC', author: { name: 'Ann' } })
    const metafile = {
      inputs: {
        'src/index.ts': {},
        'node_modules/zeta/lib/a.js': {},
        'node_modules/zeta/lib/b.js': {},
        'node_modules/@a/alpha/lib/x.js': {},
      },
    }
    assert.deepEqual(
      bundledPackages(metafile, root).map((pkg) => `${pkg.name}@${pkg.version}`),
      ['@a/alpha@2.0.0', 'zeta@1.0.0'],
    )
    writeFileSync(join(root, 'meta.json'), JSON.stringify(metafile))
    writeThirdPartyNotices(join(root, 'meta.json'), join(root, 'NOTICES.md'), 'demo', root)
    const notices = readFileSync(join(root, 'NOTICES.md'), 'utf8')
    assert.match(notices, /^# Third-party notices\n\ndemo bundles code/)
    assert.match(
      notices,
      /## @a\/alpha 2\.0\.0 \(ISC\)\n\n```text\nISC licence, copyright Ann \(the package ships no licence file\)\.\n```/,
    )
    assert.match(
      notices,
      /## zeta 1\.0\.0 \(MIT\)\n\n```text\nCopyright \(c\) Zeta Authors\n\nZeta includes software from Omega\.\n```/,
    )
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
