import { describe, expect, it } from 'vitest'
import { BenchUsageError, parseBenchArgs, selectedScenarios } from './_args.js'

const parse = (...argv: string[]) => parseBenchArgs(argv, '/out')

describe('parseBenchArgs', () => {
  it.each([
    [[], { quick: false, soakMinutes: 0, only: [], outDir: '/out', help: false }],
    [['--', '--quick'], { quick: true, soakMinutes: 0, only: [], outDir: '/out', help: false }],
    [['--soak'], { quick: false, soakMinutes: 2, only: [], outDir: '/out', help: false }],
    [['--soak', '10'], { quick: false, soakMinutes: 10, only: [], outDir: '/out', help: false }],
    [
      ['--soak=0.5', '--only', 'merge,intent'],
      { quick: false, soakMinutes: 0.5, only: ['merge', 'intent'], outDir: '/out', help: false },
    ],
    [['--no-write', '-h'], { quick: false, soakMinutes: 0, only: [], outDir: null, help: true }],
    [['--out', 'x'], { quick: false, soakMinutes: 0, only: [], outDir: 'x', help: false }],
  ])('%j', (argv, expected) => {
    expect(parse(...argv)).toEqual(expected)
  })

  it.each([[['--fast']], [['--only', 'nope']], [['--only']], [['--soak=-1']], [['--out']]])('rejects %j', (argv) => {
    expect(() => parse(...argv)).toThrowError(BenchUsageError)
  })
})

describe('selectedScenarios', () => {
  it.each([
    [
      [],
      [
        'pipeline',
        'stream',
        'cli',
        'faults',
        'latency-mix',
        'merge',
        'intent',
        'thread',
        'scans',
        'extract',
        'passages',
        'read',
        'ask',
        'server',
      ],
    ],
    [
      ['--soak', '1'],
      [
        'pipeline',
        'stream',
        'cli',
        'faults',
        'latency-mix',
        'merge',
        'intent',
        'thread',
        'scans',
        'extract',
        'passages',
        'read',
        'ask',
        'server',
        'soak',
      ],
    ],
    [
      ['--quick', '--soak'],
      [
        'pipeline',
        'stream',
        'cli',
        'faults',
        'latency-mix',
        'merge',
        'intent',
        'thread',
        'scans',
        'extract',
        'passages',
        'ask',
        'server',
      ],
    ],
    [
      ['--only', 'server,merge'],
      ['merge', 'server'],
    ],
    [['--only', 'soak', '--quick'], ['soak']],
    [['--only', 'read', '--quick'], ['read']],
  ])('%j', (argv, expected) => {
    expect(selectedScenarios(parse(...argv))).toEqual(expected)
  })
})
