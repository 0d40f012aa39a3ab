// Run by `pnpm check` after the build: the README's provider table must match the definitions the built provider
// packages export, and every provider package's main entry must hold its definition and factory, not its parsers.
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  END_MARKER,
  START_MARKER,
  loadProviderDefinitions,
  renderProviderTable,
  replaceProviderTable,
  staleProviderTables,
} from './provider-table.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

describe('provider table', () => {
  it('README.md lists exactly what the provider definitions say', async () => {
    const stale = await staleProviderTables(root)
    assert.deepEqual(
      stale.map(({ file }) => file),
      [],
      'the provider table is out of date: run `npx -y pnpm@10 docs:providers` and commit README.md',
    )
  })

  it('has one row per built-in provider package', async () => {
    const entries = await loadProviderDefinitions(root)
    const packages = readdirSync(join(root, 'packages')).filter((n) => n.startsWith('providers-'))
    assert.equal(entries.length, packages.length)
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    for (const { definition } of entries) assert.match(readme, new RegExp(`^\\| \`${definition.id}\` \\|`, 'm'))
  })

  it('renders routing, capabilities and variables from a definition, "none" for a keyless source', async () => {
    const { resolveProviderDefinition } = await import(pathToFileURL(join(root, 'packages/core/dist/index.js')).href)
    const definition = (fields) =>
      resolveProviderDefinition({ priority: 0, capabilities: ['web'], create: () => ({}), ...fields })
    const table = renderProviderTable([
      {
        packageDir: 'packages/providers-foo',
        definition: definition({
          id: 'foo',
          label: 'Foo',
          env: { apiKey: ['FOO_KEY', 'FOO_TOKEN'], baseUrl: 'FOO_URL' },
        }),
      },
      {
        packageDir: 'packages/providers-bar',
        definition: definition({
          id: 'bar',
          label: 'Bar',
          keyless: true,
          routing: 'vertical',
          capabilities: ['news', 'qa'],
          env: { apiKey: [], baseUrl: 'BAR_URL' },
        }),
      },
      // Four fields: the defaults (engine, no key, no base URL variable) come from core.
      { packageDir: 'packages/providers-tiny', definition: definition({ id: 'tiny', label: 'Tiny' }) },
    ])
    assert.equal(
      table.split('\n').slice(2).join('\n'),
      [
        '| `foo` | [Foo](packages/providers-foo) | engine | web | `FOO_KEY` (or `FOO_TOKEN`) | `FOO_URL` |',
        '| `bar` | [Bar](packages/providers-bar) | vertical | news, qa | none | `BAR_URL` |',
        '| `tiny` | [Tiny](packages/providers-tiny) | engine | web | none | none |',
      ].join('\n'),
    )
  })

  it('replaces only what sits between the markers, and names a missing end marker', () => {
    const text = `intro\n${START_MARKER}\nold table\n${END_MARKER}\noutro\n`
    assert.equal(replaceProviderTable(text, 'NEW'), `intro\n${START_MARKER}\nNEW\n${END_MARKER}\noutro\n`)
    assert.equal(replaceProviderTable('no markers here', 'NEW'), undefined)
    assert.throws(() => replaceProviderTable(`${START_MARKER}\nold`, 'NEW'), /without <!-- provider-table:end -->/)
  })
})

describe('provider packages export the definition and factory only', () => {
  const packages = readdirSync(join(root, 'packages')).filter((n) => n.startsWith('providers-'))
  for (const name of packages) {
    it(`${name}: one entry, holding the definition, the factory and constants`, async () => {
      const dir = join(root, 'packages', name)
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      assert.deepEqual(Object.keys(manifest.exports), ['.'], `${name}/package.json exports more than its main entry`)
      const main = await import(pathToFileURL(join(dir, manifest.exports['.'].import.default)).href)
      const names = Object.keys(main)
      assert.ok(names.some((n) => n.endsWith('Definition')) && names.some((n) => /^create\w+Provider$/.test(n)))
      assert.deepEqual(
        names.filter((n) => !n.endsWith('Definition') && !/^create\w+Provider$/.test(n) && !/^[A-Z0-9_]+$/.test(n)),
        [],
      )
    })
  }
})
