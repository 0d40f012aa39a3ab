// The text toolkit every package shares (`@search-layer/core/text`): one answer to "decode this entity", "is this
// whitespace", "is this query Chinese" and "is this a stop word", with one test suite. Pure, linear in the input.
export { decodeEntities } from './entities.js'
export { hasCollapsibleSpace, isWhitespace, joinParagraphs } from './whitespace.js'
export {
  CJK_CLASS,
  HAN_CLASS,
  HANGUL_CLASS,
  KANA_CLASS,
  cjkLanguage,
  hasCjk,
  hasHan,
  hasHangul,
  hasKana,
  isChinese,
} from './scripts.js'
export { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stop-words.js'
export { plainText } from '../text.js'
export { untrustedFrame } from './untrusted-frame.js'
export type { UntrustedFrame } from './untrusted-frame.js'
