import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SHIM = fileURLToPath(new URL('./_undici-http.cjs', import.meta.url))
const shim = createRequire(import.meta.url)('./_undici-http.cjs') as {
  maxHeaderSize: number
  maxHeaderSizeOf(execArgv?: string[], nodeOptions?: string): number
  IncomingMessage: new () => unknown
}

/** [the shim's maxHeaderSize, node:http's] in a fresh Node started with these flags and NODE_OPTIONS. */
function inFreshNode(flags: string[], nodeOptions?: string): [number, number] {
  const script = `const s = require(${JSON.stringify(SHIM)}); console.log(JSON.stringify([s.maxHeaderSize, require('node:http').maxHeaderSize]))`
  const env = { PATH: process.env.PATH, ...(nodeOptions !== undefined && { NODE_OPTIONS: nodeOptions }) }
  return JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { env, encoding: 'utf8' })) as [
    number,
    number,
  ]
}

describe("the CLI bundle's node:http for undici", () => {
  it.each([
    ['no flag', [], undefined],
    ['--max-http-header-size=32768', ['--max-http-header-size=32768'], undefined],
    ['--max-http-header-size 8192', ['--max-http-header-size', '8192'], undefined],
    ['NODE_OPTIONS', [], '--max-http-header-size=65536'],
    ['NODE_OPTIONS among other flags', [], '--no-warnings --max-http-header-size=20000 --trace-exit'],
    ['both: the command line wins', ['--max-http-header-size=12000'], '--max-http-header-size=30000'],
  ] as const)('maxHeaderSize is what node:http says (%s)', (_name, flags, nodeOptions) => {
    const [fromShim, fromNode] = inFreshNode([...flags], nodeOptions)
    expect(fromShim).toBe(fromNode)
  })

  it('answers without loading node:http when the flag is not given', () => {
    const script = `require(${JSON.stringify(SHIM)}); console.log(process.moduleLoadList.includes('NativeModule http'))`
    expect(
      execFileSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH }, encoding: 'utf8' }).trim(),
    ).toBe('false')
  })

  it('reads the flag from arguments and NODE_OPTIONS only in its exact spelling', () => {
    expect(shim.maxHeaderSizeOf([], undefined)).toBe(16 * 1024)
    expect(shim.maxHeaderSizeOf(['--max-http-header-sizes=1'], '--max-http-header')).toBe(16 * 1024)
  })

  it('matches no real incoming message', async () => {
    const { IncomingMessage } = await import('node:http')
    expect(shim.IncomingMessage).not.toBe(IncomingMessage)
    expect(Object.getPrototypeOf(new shim.IncomingMessage()).constructor).toBe(shim.IncomingMessage)
  })
})
