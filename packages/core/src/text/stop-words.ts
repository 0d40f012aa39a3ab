/**
 * English words that say nothing about a search's topic: articles, pronouns, auxiliaries, question words and the
 * common prepositions. A query term in this set is not matched against results; a consumer that reads longer prose
 * (synthesis labelling clusters) adds its own filler on top and says why beside it.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to in on for and or is are was were be been what how why when where which who whom do does did ' +
    'with vs versus about by from at as it its this that these those i my me we our you your can could should ' +
    'would will between than into over not no'
  ).split(' '),
)

/**
 * Chinese words with the same role, as `Intl.Segmenter` cuts a query: particles (的 了 吗), question words
 * (什么 怎么 如何 为什么) and common function words.
 */
export const CHINESE_STOP_WORDS: ReadonlySet<string> = new Set(
  '的 了 是 和 与 及 在 吗 呢 啊 吧 什么 怎么 如何 怎样 哪些 哪个 为什么 一个 有 对 把 被 也 就 都'.split(' '),
)
