/**
 * Which CJK script a text is written in, by Unicode's Script property (not code-point ranges, which miss the
 * compatibility and astral ideographs, 々 and 〇, and half-width katakana). One rule decides "is this Chinese?":
 *
 * - any kana (hiragana or katakana) → Japanese: Japanese writes kanji beside kana, Chinese never writes kana;
 * - else any Hangul → Korean: Korean text may quote hanja, Chinese never writes Hangul;
 * - else any Han → Chinese;
 * - else none of the three. Punctuation (、。？, full-width forms), the prolonged sound mark ー and emoji belong to
 *   no script here: `？？` is not Chinese, `ー` is not Japanese.
 *
 * Each test is one scan of a regex without quantifiers over a class: linear, no backtracking.
 */

/** Class body (for `[...]` in a `u`-flag pattern) of the Han script: hanzi, kanji, hanja, 々, 〇. */
export const HAN_CLASS = '\\p{Script=Han}'
/** Class body (for `[...]` in a `u`-flag pattern) of hiragana and katakana, half-width katakana included. */
export const KANA_CLASS = '\\p{Script=Hiragana}\\p{Script=Katakana}'
/** Class body (for `[...]` in a `u`-flag pattern) of Hangul: syllables and jamo. */
export const HANGUL_CLASS = '\\p{Script=Hangul}'
/** Class body of the three scripts together: the text written without spaces between words (Korean aside). */
export const CJK_CLASS = `${HAN_CLASS}${KANA_CLASS}${HANGUL_CLASS}`

const HAN = new RegExp(`[${HAN_CLASS}]`, 'u')
const KANA = new RegExp(`[${KANA_CLASS}]`, 'u')
const HANGUL = new RegExp(`[${HANGUL_CLASS}]`, 'u')
const CJK = new RegExp(`[${CJK_CLASS}]`, 'u')

/** Whether the text holds a Han character (Chinese, or kanji/hanja inside Japanese or Korean). */
export function hasHan(text: string): boolean {
  return HAN.test(text)
}

/** Whether the text holds hiragana or katakana. */
export function hasKana(text: string): boolean {
  return KANA.test(text)
}

/** Whether the text holds Hangul. */
export function hasHangul(text: string): boolean {
  return HANGUL.test(text)
}

/** Whether the text holds a Han, kana or Hangul character. */
export function hasCjk(text: string): boolean {
  return CJK.test(text)
}

/** The CJK language a text's script names (kana → `ja`, else Hangul → `ko`, else Han → `zh`), else undefined. */
export function cjkLanguage(text: string): 'zh' | 'ja' | 'ko' | undefined {
  if (!CJK.test(text)) return undefined
  if (KANA.test(text)) return 'ja'
  if (HANGUL.test(text)) return 'ko'
  return 'zh'
}

/** Whether the text is Chinese: Han characters, and neither kana nor Hangul (see `cjkLanguage`). */
export function isChinese(text: string): boolean {
  return cjkLanguage(text) === 'zh'
}
