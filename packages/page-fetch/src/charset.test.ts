import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { charsetFromContentType, decodeBody, detectCharset, normalizeCharset } from './index.js'

// Bytes produced by python3 `text.encode(codec)`, so decoding is checked against an independent encoder.
const ENCODED = [
  ['shift_jis', '日本語のページ', '93fa967b8cea82cc8379815b8357'],
  ['big5', '繁體中文網頁', 'c163c5e9a4a4a4e5baf4adb6'],
  ['euc-kr', '한국어 페이지', 'c7d1b1b9beee20c6e4c0ccc1f6'],
  ['gb18030', '简体中文页面', 'bcf2cce5d6d0cec4d2b3c3e6'],
  ['gbk', '异步编程', 'd2ecb2bdb1e0b3cc'],
  ['windows-1252', 'Café déjà vu', '436166e92064e96ae0207675'],
] as const

const html = (head: string, bodyHex: string) =>
  Buffer.concat([
    Buffer.from(`<!DOCTYPE html><html><head>${head}<title>`, 'latin1'),
    Buffer.from(bodyHex, 'hex'),
    Buffer.from('</title></head></html>', 'latin1'),
  ])

describe('detectCharset', () => {
  it.each(ENCODED)('decodes %s from the Content-Type header', (charset, text, hex) => {
    const body = html('', hex)
    const detected = detectCharset(body, `text/html; charset=${charset.toUpperCase()}`)
    expect(detected).toEqual({ charset, source: 'header' })
    expect(decodeBody(body, detected.charset)).toContain(`<title>${text}</title>`)
  })

  it.each(ENCODED)('decodes %s from <meta charset>', (charset, text, hex) => {
    const body = html(`<meta charset="${charset}">`, hex)
    const detected = detectCharset(body, 'text/html')
    expect(detected).toEqual({ charset, source: 'meta' })
    expect(decodeBody(body, detected.charset)).toContain(text)
  })

  it.each(ENCODED)('decodes %s from <meta http-equiv="Content-Type">', (charset, text, hex) => {
    const body = html(`<meta http-equiv="Content-Type" content="text/html; charset=${charset}">`, hex)
    expect(decodeBody(body, detectCharset(body, undefined).charset)).toContain(text)
  })

  it.each([
    ['gb2312', 'gbk'],
    ['x-sjis', 'shift_jis'],
    ['latin1', 'windows-1252'],
    ['ISO-8859-1', 'windows-1252'],
    ['"utf-8"', 'utf-8'],
    ['UTF8', 'utf-8'],
    ['ks_c_5601-1987', 'euc-kr'],
  ])('maps the label %s to %s', (label, charset) => {
    expect(normalizeCharset(label)).toBe(charset)
  })

  it.each([
    ['efbbbf', 'utf-8'],
    ['feff', 'utf-16be'],
    ['fffe', 'utf-16le'],
  ])('a %s byte-order mark wins over header and meta', (bom, charset) => {
    const text = '<meta charset="gbk"><p>héllo 世界</p>'
    const encoded =
      charset === 'utf-8'
        ? Buffer.from(text)
        : charset === 'utf-16le'
          ? Buffer.from(text, 'utf16le')
          : Buffer.from(text, 'utf16le').swap16()
    const body = Buffer.concat([Buffer.from(bom, 'hex'), encoded])
    const detected = detectCharset(body, 'text/html; charset=iso-8859-1')
    expect(detected).toEqual({ charset, source: 'bom' })
    expect(decodeBody(body, detected.charset)).toBe(text)
  })

  it('the header wins over a conflicting meta tag', () => {
    expect(detectCharset(Buffer.from('<meta charset="gbk">'), 'text/html; charset=utf-8')).toEqual({
      charset: 'utf-8',
      source: 'header',
    })
  })

  it('skips an unknown header label and falls through to meta', () => {
    expect(detectCharset(Buffer.from('<meta charset="big5">'), 'text/html; charset=x-klingon')).toEqual({
      charset: 'big5',
      source: 'meta',
    })
  })

  it('ignores a meta tag inside a comment', () => {
    expect(
      detectCharset(Buffer.from('<!-- <meta charset="gbk"> --><meta charset="euc-kr">'), 'text/html').charset,
    ).toBe('euc-kr')
  })

  it('reads the XML declaration', () => {
    expect(
      detectCharset(Buffer.from('<?xml version="1.0" encoding="Shift_JIS"?><rss/>'), 'application/rss+xml'),
    ).toEqual({ charset: 'shift_jis', source: 'meta' })
  })

  it('treats a meta claim of UTF-16 as UTF-8 (it was readable as ASCII)', () => {
    expect(detectCharset(Buffer.from('<meta charset="utf-16">'), 'text/html').charset).toBe('utf-8')
  })

  it('does not sniff meta in JSON or plain text', () => {
    expect(detectCharset(Buffer.from('{"html":"<meta charset=gbk>"}'), 'application/json')).toEqual({
      charset: 'utf-8',
      source: 'default',
    })
  })

  it('defaults to UTF-8', () => {
    expect(detectCharset(Buffer.from('<p>plain</p>'), 'text/html')).toEqual({ charset: 'utf-8', source: 'default' })
  })

  it('never throws and always names an encoding TextDecoder accepts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.option(fc.string()), (bytes, contentType) => {
        const { charset } = detectCharset(bytes, contentType)
        expect(() => new TextDecoder(charset)).not.toThrow()
        expect(typeof decodeBody(bytes, charset)).toBe('string')
      }),
    )
  })
})

describe('charsetFromContentType', () => {
  it.each([
    ['text/html; charset=utf-8', 'utf-8'],
    ['text/html;charset="Shift_JIS"', 'Shift_JIS'],
    ['text/html; foo=bar; charset=gbk', 'gbk'],
    ['text/html', undefined],
    ['', undefined],
  ])('%j → %j', (header, charset) => {
    expect(charsetFromContentType(header)).toBe(charset)
  })
})
