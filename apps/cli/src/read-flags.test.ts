import { describe, expect, it } from 'vitest'
import { parseCommandArgs, renderCommandHelp } from './args.js'
import { searchCommand } from './commands/search.js'
import { parseReadFlags } from './flags.js'
import { UsageError } from './io.js'

const parse = (...argv: string[]) => parseCommandArgs(searchCommand, argv)

describe('--read [N]', () => {
  it('takes a number after it as the count, and leaves anything else to be the query', () => {
    expect(parse('--read', 'tokio select')).toMatchObject({ values: { read: '' }, positionals: ['tokio select'] })
    expect(parse('tokio select', '--read')).toMatchObject({ values: { read: '' }, positionals: ['tokio select'] })
    expect(parse('--read', '3', 'tokio select')).toMatchObject({ values: { read: '3' }, positionals: ['tokio select'] })
    expect(parse('--read=7', 'q')).toMatchObject({ values: { read: '7' }, positionals: ['q'] })
    expect(parse('q', '--read', '--json')).toMatchObject({ values: { read: '', json: true }, positionals: ['q'] })
    // Bad counts are still counts, so they are refused by name rather than searched for.
    expect(parse('q', '--read', '-1').values.read).toBe('-1')
    expect(parse('q', '--read', '2.5').values.read).toBe('2.5')
  })

  it('becomes the request field: 5 by default, a count, or the options with --read-tokens', () => {
    expect(parseReadFlags('', undefined)).toBe(5)
    expect(parseReadFlags('0', undefined)).toBe(0)
    expect(parseReadFlags('3', '800')).toEqual({ pages: 3, budgetTokens: 800 })
    expect(parseReadFlags(undefined, undefined)).toBeUndefined()
  })

  it('refuses a count outside 0–10 or not whole, naming --read and the range', () => {
    for (const bad of ['11', '-1', '2.5'])
      expect(() => parseReadFlags(bad, undefined)).toThrow(
        new UsageError(`--read must be a whole number from 0 to 10 (got "${bad}")`),
      )
    expect(() => parseReadFlags('3', '0')).toThrow(/--read-tokens must be a whole number from 1 to 100000/)
    expect(() => parseReadFlags(undefined, '500')).toThrow(/--read-tokens needs --read/)
  })

  it('shows the optional value in help', async () => {
    expect(await renderCommandHelp(searchCommand)).toMatch(/--read \[0-10\]\s+read the top N results/)
  })
})
