import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { freshnessScore, parseDate } from './index.js'
import { utcTime } from './_date-fast.js'
import { generalDateTime, isoString, parseDateTime } from './date.js'

const now = new Date('2026-03-15T12:00:00.000Z')

describe('parseDate', () => {
  it.each([
    ['Exa ISO with milliseconds', '2025-11-02T08:15:30.123Z', '2025-11-02T08:15:30.123Z'],
    ['ISO without milliseconds', '2025-11-02T08:15:30Z', '2025-11-02T08:15:30.000Z'],
    ['ISO with an offset', '2025-11-02T08:15:30+02:00', '2025-11-02T06:15:30.000Z'],
    ['ISO with a compact offset', '2025-11-02T08:15:30.5+0000', '2025-11-02T08:15:30.500Z'],
    ['Brave page_age without a zone, read as UTC', '2025-11-02T08:15:30', '2025-11-02T08:15:30.000Z'],
    ['ISO with a space and no zone', '2025-11-02 08:15', '2025-11-02T08:15:00.000Z'],
    ['YYYY-MM-DD', '2025-11-02', '2025-11-02T00:00:00.000Z'],
    ['YYYY/MM/DD', '2025/11/2', '2025-11-02T00:00:00.000Z'],
    ['Chinese date', '2025年11月2日', '2025-11-02T00:00:00.000Z'],
    ['RFC 2822 (Tavily)', 'Sun, 02 Nov 2025 08:15:30 GMT', '2025-11-02T08:15:30.000Z'],
    ['RFC 2822 with an offset', 'Sun, 02 Nov 2025 08:15:30 +0100', '2025-11-02T07:15:30.000Z'],
    ['a month name without a zone, read as UTC', 'November 2, 2025', '2025-11-02T00:00:00.000Z'],
    ['3 days ago', '3 days ago', '2026-03-12T12:00:00.000Z'],
    ['an hour ago', 'an hour ago', '2026-03-15T11:00:00.000Z'],
    ['2 weeks ago', '2 weeks ago', '2026-03-01T12:00:00.000Z'],
    ['5d ago', '5d ago', '2026-03-10T12:00:00.000Z'],
    ['yesterday', 'Yesterday', '2026-03-14T12:00:00.000Z'],
    ['3天前', '3天前', '2026-03-12T12:00:00.000Z'],
    ['2小时前', '2小时前', '2026-03-15T10:00:00.000Z'],
    ['Unix seconds', 1_700_000_000, '2023-11-14T22:13:20.000Z'],
    ['Unix milliseconds as text', '1700000000000', '2023-11-14T22:13:20.000Z'],
  ])('reads %s', (_name, input, expected) => {
    expect(parseDate(input, { now })).toBe(expected)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['garbage', 'last Tuesday-ish'],
    ['a non-calendar date', '2025-02-30'],
    ['a month 13', '2025-13-01'],
    ['an object', { date: '2025-01-01' }],
    ['NaN', Number.NaN],
    ['an absurd year', '0001-01-01'],
    ['an unknown unit', '3 fortnights ago'],
  ])('returns null for %s', (_name, input) => {
    expect(parseDate(input, { now })).toBeNull()
  })

  it('never throws and returns ISO or null for any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.date()), (value) => {
        const out = parseDate(value, { now })
        expect(out === null || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(out)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('round-trips its own output', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (d) => {
        const iso = d.toISOString()
        expect(parseDate(iso)).toBe(iso)
      }),
    )
  })
})

describe('freshnessScore', () => {
  it.each([
    ['today', '2026-03-15T12:00:00Z', 1],
    ['one half-life (180 days) old', '2025-09-16T12:00:00Z', 0.5],
    ['two half-lives old', '2025-03-20T12:00:00Z', 0.25],
    ['no date', null, 0.5],
    ['an unparseable date', 'sometime', 0.5],
    ['a date far in the future (unreliable)', '2027-01-01', 0.5],
    ['a date a few hours ahead (clock skew)', '2026-03-15T20:00:00Z', 1],
  ])('scores %s', (_name, date, expected) => {
    expect(freshnessScore(date, { now })).toBe(expected)
  })

  it('decays smoothly: never increases with age and stays in [0,1]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), (a, b) => {
        const [younger, older] = a <= b ? [a, b] : [b, a]
        const at = (days: number) => freshnessScore(new Date(now.getTime() - days * 86_400_000).toISOString(), { now })
        expect(at(younger)).toBeGreaterThanOrEqual(at(older))
        expect(at(older)).toBeGreaterThanOrEqual(0)
        expect(at(younger)).toBeLessThanOrEqual(1)
      }),
    )
  })

  it('honours a shorter half-life for news', () => {
    expect(freshnessScore('2026-03-08T12:00:00Z', { now, halfLifeDays: 7 })).toBe(0.5)
  })

  it('uses a year in the text as a weak fallback', () => {
    const thisYear = freshnessScore(null, { now, text: 'Deno 2 release notes (2026)' })
    const old = freshnessScore(null, { now, text: 'Written in 2019, updated 2020' })
    expect(thisYear).toBeGreaterThan(0.5)
    expect(thisYear).toBeLessThan(freshnessScore('2026-01-01', { now }))
    expect(old).toBeLessThan(0.5)
    expect(old).toBeGreaterThanOrEqual(0.25)
    expect(freshnessScore(null, { now, text: 'see issue 12345 and year 3000' })).toBe(0.5)
  })
})

describe('parseDate on canonical ISO input', () => {
  it.each([
    ['2024-02-29T10:00:00.000Z', '2024-02-29T10:00:00.000Z'],
    ['2024-02-30T10:00:00.000Z', null],
    ['2023-02-29T10:00:00.000Z', null],
    ['2024-04-31T00:00:00.000Z', null],
    ['2024-13-01T00:00:00.000Z', null],
    ['1899-12-31T00:00:00.000Z', null],
    ['2000-02-29T23:59:59.999Z', '2000-02-29T23:59:59.999Z'],
    ['1900-02-29T00:00:00.000Z', null],
    ['2024-01-01T24:00:00.000Z', null],
  ])('%s → %s', (input, expected) => {
    expect(parseDate(input)).toBe(expected)
  })

  it('agrees with parseDateTime, the millisecond form merge and freshness use', () => {
    const value = fc.oneof(
      fc.string(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom(
        '2024-02-30T00:00:00.000Z',
        '2024-05-01',
        '3 days ago',
        '3天前',
        'Wed, 01 May 2024 12:34:56 GMT',
        '1700000000',
        '2024/5/1',
      ),
      fc.integer(),
    )
    fc.assert(
      fc.property(value, (v) => {
        const iso = parseDate(v, { now })
        expect(parseDateTime(v, now)).toBe(iso === null ? null : Date.parse(iso))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('parseDateTime char-code readers', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0')
  const year = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1890, max: 2210 }).map((y) => pad(y, 4)) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.constantFrom(1, 2, 4)).map(([y, w]) => pad(y, w)),
    },
  )
  const small = (max: number) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max }).map((n) => pad(n, 2)) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('', '1a', '123', '٣', '-1') },
    )
  const month = small(13)
  const day = small(40)
  const hour = small(25)
  const minute = small(61)
  const monthName = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom('Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'),
    },
    { weight: 1, arbitrary: fc.constantFrom('jan', 'JAN', 'January', 'Sept', 'Xyz', 'Mon', '') },
  )
  const weekday = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun') },
    { weight: 1, arbitrary: fc.constantFrom('Xyz', 'sun', 'Sunday', 'Jan', '') },
  )
  const sep = (usual: string, ...others: string[]) =>
    fc.oneof({ weight: 8, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...others) })
  const count = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 400 }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('007', '99999999999999', '999999999999999', '9999999999999999999', 'a', 'an', 'one'),
    },
  )
  const word = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('second', 'minute', 'hour', 'day', 'week', 'month', 'year') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        's',
        'sec',
        'secs',
        'm',
        'min',
        'mins',
        'h',
        'hr',
        'hrs',
        'd',
        'w',
        'wk',
        'mo',
        'y',
        'yr',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('constructor', 'toString', 'ss', 'Day', 'fortnight', 'ago', '') },
  )
  const cjkUnit = fc.constantFrom('秒', '分钟', '小时', '天', '周', '星期', '个月', '月', '年', '日', '')
  const shaped = fc.oneof(
    fc.tuple(year, sep('-', '/', '.'), month, sep('-', '/', '.'), day).map((p) => p.join('')),
    fc.tuple(year, sep('/', '.', '-'), month, sep('/', '.', '-'), day).map((p) => p.join('')),
    fc
      .tuple(
        year,
        sep('年', '-'),
        month,
        sep('月', ''),
        day,
        sep('日', '', '号'),
        fc.constantFrom('', '', ' 12:00', 'x'),
      )
      .map((p) => p.join('')),
    fc
      .tuple(
        year,
        sep('-', '/'),
        month,
        sep('-', '/'),
        day,
        sep('T', ' ', 't'),
        hour,
        sep(':', '.'),
        minute,
        sep(':', '.'),
        minute,
        fc.constantFrom('', '', '', 'Z', '.5', '+01:00'),
      )
      .map((p) => p.join('')),
    fc
      .tuple(
        weekday,
        sep(', ', ' ', ','),
        day,
        sep(' ', '-'),
        monthName,
        sep(' ', '-'),
        year,
        sep(' ', 'T'),
        hour,
        sep(':', '.'),
        minute,
        sep(':', '.'),
        minute,
        sep(' GMT', ' UTC', ' +0100', '', ' gmt', 'GMT'),
      )
      .map((p) => p.join('')),
    fc
      .tuple(
        monthName,
        sep(' ', '  ', '.'),
        day,
        sep(', ', ' ', ','),
        year,
        fc.constantFrom('', '', '', ' UTC', ' 10:00'),
      )
      .map((p) => p.join('')),
    fc
      .tuple(
        count,
        sep(' ', '', '  '),
        word,
        fc.constantFrom('', 's', 'S'),
        sep(' ago', ' AGO', 'ago', '  ago', ' ago '),
      )
      .map((p) => p.join('')),
    fc.tuple(count, sep('', ' '), cjkUnit, sep('前', '后', '')).map((p) => p.join('')),
  )
  const value = fc.oneof(
    { weight: 8, arbitrary: shaped },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(' ', '\t', '\u3000'), shaped).map(([a, b]) => a + b) },
    { weight: 1, arbitrary: fc.tuple(shaped, fc.constantFrom(' ', '\n', 'Z', 'x', '0')).map(([a, b]) => a + b) },
    { weight: 1, arbitrary: fc.string() },
  )
  const clock = fc.oneof(
    { weight: 8, arbitrary: fc.constant(now) },
    {
      weight: 2,
      arbitrary: fc.date({ min: new Date('1800-01-01'), max: new Date('2300-01-01'), noInvalidDate: true }),
    },
    { weight: 1, arbitrary: fc.constant(new Date(Number.NaN)) },
  )

  it('give exactly what the general parser gives, for every shape they read and its near misses', () => {
    let dated = 0
    fc.assert(
      fc.property(value, clock, (v, at) => {
        const time = generalDateTime(v, at)
        if (time !== null) dated++
        expect(parseDateTime(v, at)).toBe(time)
      }),
      { numRuns: 30_000 },
    )
    // Most values should be dates, or the property says little about the readers.
    expect(dated).toBeGreaterThan(6_000)
  })

  it.each([
    ['2024-01-05T08:30:00', Date.UTC(2024, 0, 5, 8, 30)],
    ['2024-02-30T08:30:00', Date.UTC(2024, 2, 1, 8, 30)],
    ['1899-12-31T23:59:59', null],
    ['2024-01-05', Date.UTC(2024, 0, 5)],
    ['2024/1/5', Date.UTC(2024, 0, 5)],
    ['2024.01.5', Date.UTC(2024, 0, 5)],
    ['2024年1月5日', Date.UTC(2024, 0, 5)],
    ['2024年2月30日', null],
    ['Sun, 05 Jan 2024 08:00:00 GMT', Date.UTC(2024, 0, 5, 8)],
    ['Sun, 31 Feb 2024 08:00:00 GMT', Date.UTC(2024, 2, 2, 8)],
    ['Jan 5, 2024', Date.UTC(2024, 0, 5)],
    ['3 days ago', now.getTime() - 3 * 86_400_000],
    ['5 hrs ago', now.getTime() - 5 * 3_600_000],
    ['3个月前', now.getTime() - 90 * 86_400_000],
    ['11小时前', now.getTime() - 11 * 3_600_000],
  ])('reads %s', (input, expected) => {
    expect(parseDateTime(input, now)).toBe(expected)
    expect(generalDateTime(input, now)).toBe(expected)
  })
})

describe('isoString', () => {
  it('writes what Date#toISOString writes, for every time in years 0–9999', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2201, 0, 1) - 1 }),
          fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
          fc.constantFrom(
            0,
            -1,
            Date.UTC(2000, 1, 29),
            Date.UTC(1900, 1, 28, 23, 59, 59, 999),
            Date.UTC(2100, 2, 1),
            -62_167_219_200_000,
          ),
        ),
        (time) => {
          expect(isoString(time)).toBe(new Date(time).toISOString())
        },
      ),
      { numRuns: 20_000 },
    )
  })
})

describe('utcTime', () => {
  it('is Date.UTC for years from 100 on, days rolling past the end of the month included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 999 }),
        (year, month, day, hour, minute, second, ms) => {
          expect(utcTime(year, month, day, hour, minute, second, ms)).toBe(
            Date.UTC(year, month - 1, day, hour, minute, second, ms),
          )
        },
      ),
      { numRuns: 20_000 },
    )
  })
})
