import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CHINESE_STOP_WORDS,
  CJK_CLASS,
  ENGLISH_STOP_WORDS,
  cjkLanguage,
  decodeEntities,
  hasCjk,
  hasHan,
  hasHangul,
  hasKana,
  isChinese,
  isWhitespace,
  joinParagraphs,
} from './index.js'

describe('decodeEntities', () => {
  it.each([
    ['Rust &amp; async', 'Rust & async'],
    ['&lt;b&gt; &quot;x&quot; &apos;y&apos;', '<b> "x" \'y\''],
    ['&AMP; &Amp; &NbSp;', '& &  '],
    ['a&nbsp;b', 'a b'],
    ['&mdash; &ndash; &hellip; &middot; &bull; &trade; &copy; &reg;', '— – … · • ™ © ®'],
    ['&lsquo;&rsquo;&ldquo;&rdquo;&laquo;&raquo;', '‘’“”«»'],
    ['&#39; &#x27; &#X2F; &#x4E2D;&#25991;', "' ' / 中文"],
    ['&#x1F600; &#128512;', '😀 😀'],
    // Left as written: unknown names, lone surrogates, past U+10FFFF, NUL, too many digits, no semicolon.
    [
      '&bogus; &#xD800; &#xDFFF; &#x110000; &#0; &#x0000041; &#12345678; &amp &#39',
      '&bogus; &#xD800; &#xDFFF; &#x110000; &#0; &#x0000041; &#12345678; &amp &#39',
    ],
    ['?a=1&copy=2&lt=3', '?a=1&copy=2&lt=3'],
    ['&amp;lt;', '&lt;'],
    ['no references', 'no references'],
    ['', ''],
  ])('%j → %j', (input, expected) => expect(decodeEntities(input)).toBe(expected))

  it('gives back any text written as numeric references', () => {
    const scalar = fc
      .integer({ min: 1, max: 0x10ffff })
      .filter((code) => code < 0xd800 || code > 0xdfff)
      .map((code) => String.fromCodePoint(code))
    fc.assert(
      fc.property(fc.array(scalar, { maxLength: 30 }), fc.boolean(), (chars, hex) => {
        const written = chars.map((c) => `&#${hex ? 'x' : ''}${c.codePointAt(0)!.toString(hex ? 16 : 10)};`).join('')
        expect(decodeEntities(written)).toBe(chars.join(''))
      }),
    )
  })

  it('never throws and leaves text without & alone', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = decodeEntities(s)
        if (!s.includes('&')) expect(out).toBe(s)
        else expect(out.length).toBeLessThanOrEqual(s.length)
      }),
      { numRuns: 2000 },
    )
  })

  it('stays linear on text made of reference openings', () => {
    for (const unit of ['&#', '&#x', '&a', '&amp', '&#1234567', '&'.repeat(3)]) {
      const text = unit.repeat(200_000)
      const started = performance.now()
      expect(decodeEntities(text)).toBe(text)
      // A quadratic scan of 200k openings takes minutes; a linear one, milliseconds.
      expect(performance.now() - started).toBeLessThan(2000)
    }
  })
})

describe('isWhitespace', () => {
  it('answers exactly as /\\s/ for every UTF-16 code unit', () => {
    // 65,536 code units: expect.soft only reports a difference (each call costs more than the check).
    for (let code = 0; code <= 0xffff; code++) {
      const expected = /\s/.test(String.fromCharCode(code))
      if (isWhitespace(code) !== expected) expect.soft(isWhitespace(code), code.toString(16)).toBe(expected)
    }
  })
})

describe('joinParagraphs', () => {
  it.each([
    [['\n\n', 'One  two\t', '\n\n', '\n\n', ' three\u00a0 four ', '\n\n'], 'One two\n\nthree four'],
    [['line', '\n', 'next', '\n', '   ', '\n', 'last'], 'line\nnext\nlast'],
    [['a\n\n\n\nb'], 'a\n\nb'],
    [['  ', '\n\n', '\t'], ''],
    [[], ''],
    // Only inline blanks collapse: an ideographic space or an em space is text, kept as written.
    [['中\u3000文 \u2003x'], '中\u3000文 \u2003x'],
  ])('%j → %j', (parts, expected) => expect(joinParagraphs(parts)).toBe(expected))

  it('never leaves blank lines inside, blank paragraphs or blanks at line ends', () => {
    const piece = fc.constantFrom('a', '中', ' ', '  ', '\t', '\n', '\n\n', '\r', '\u00a0', '\f')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const out = joinParagraphs(parts)
        expect(out).not.toMatch(/\n{3,}|^\n|\n$/)
        for (const line of out.split('\n')) expect(line).not.toMatch(/^[ \t\f\r\u00a0]|[ \t\f\r\u00a0]$| {2}/)
      }),
    )
  })
})

describe('the CJK script rule', () => {
  it.each([
    // [text, language, hasHan, hasKana, hasHangul]
    ['Rust 异步编程', 'zh', true, false, false],
    ['什么是 WebTransport？', 'zh', true, false, false],
    ['東京の天気', 'ja', true, true, false],
    ['ひらがな', 'ja', false, true, false],
    ['カタカナ', 'ja', false, true, false],
    ['ｶﾀｶﾅ', 'ja', false, true, false],
    ['한국어 검색', 'ko', false, false, true],
    ['ㄱㄴㄷ', 'ko', false, false, true],
    // Hanja inside Korean: Korean, not Chinese.
    ['大韓民國 헌법', 'ko', true, false, true],
    // Kana and Hangul together: kana decides first.
    ['カタカナ 한국', 'ja', false, true, true],
    // Astral (Ext. B), compatibility and iteration-mark Han count as Han.
    ['𠮷野家', 'zh', true, false, false],
    ['豈', 'zh', true, false, false],
    ['々', 'zh', true, false, false],
    // Punctuation, the prolonged sound mark and emoji belong to no CJK script.
    ['？！，。、「」（）', undefined, false, false, false],
    ['ー・', undefined, false, false, false],
    ['🍜😀', undefined, false, false, false],
    ['ＲＵＳＴ　async', undefined, false, false, false],
    ['', undefined, false, false, false],
    ['naïve café', undefined, false, false, false],
  ])('%j → %s', (text, language, han, kana, hangul) => {
    expect(cjkLanguage(text)).toBe(language)
    expect(isChinese(text)).toBe(language === 'zh')
    expect([hasHan(text), hasKana(text), hasHangul(text)]).toEqual([han, kana, hangul])
    expect(hasCjk(text)).toBe(han || kana || hangul)
  })

  it('answers one way for every text: a language exactly when a CJK script is present', () => {
    const piece = fc.constantFrom('a', ' ', '中', '𠮷', 'の', 'カ', 'ｶ', '한', 'ㄱ', '？', '、', 'ー', '😀', '\u3000')
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((a) => a.join('')),
        (text) => {
          const language = cjkLanguage(text)
          expect(language !== undefined).toBe(hasCjk(text))
          expect(language === 'ja').toBe(hasKana(text))
          expect(language === 'ko').toBe(!hasKana(text) && hasHangul(text))
          expect(isChinese(text)).toBe(hasHan(text) && !hasKana(text) && !hasHangul(text))
        },
      ),
    )
  })

  it('gives a class body that compiles in a u-flag pattern', () => {
    expect(new RegExp(`[${CJK_CLASS}]+`, 'gu').exec('rust 异步 の 한')?.[0]).toBe('异步')
  })
})

describe('stop words', () => {
  it('hold lower-case words only, no topic words', () => {
    for (const word of ENGLISH_STOP_WORDS) expect(word).toMatch(/^[a-z]+$/)
    for (const word of CHINESE_STOP_WORDS) expect(isChinese(word)).toBe(true)
    for (const topic of ['rust', 'async', 'tutorial', 'new', 'release'])
      expect(ENGLISH_STOP_WORDS.has(topic)).toBe(false)
    expect(CHINESE_STOP_WORDS.has('教程')).toBe(false)
    expect([...ENGLISH_STOP_WORDS].filter((w) => ['the', 'how', 'vs'].includes(w))).toHaveLength(3)
  })
})
