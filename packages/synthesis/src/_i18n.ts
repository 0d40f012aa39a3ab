import type { Conflict, SynthesisLanguage } from './types.js'

/** Every sentence the synthesis says in its own voice, in English and Chinese. */
export interface Wording {
  accordingTo(source: string, text: string, date?: string): string
  differ(conflict: Conflict, cite: (results: number[]) => string): string
  overview(topics: { label: string; count: number }[]): string
  footer(total: number, providers: string[], aspects: string[]): string
  omitted(count: number): string
  answerLabel(source: string): string
  /** The plain statement that no top result is about the query. */
  noneOnTopic(query: string): string
  /** The label of the lead in plain text. */
  leadLabel: string
  topicLabel: string
  otherLabel: string
  resultsLabel: string
  topHeader: string
  noResults: string
  relevance: string
}

function andList(items: string[], and: string): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`
}

const EN: Wording = {
  accordingTo: (source, text, date) => `According to ${source}${date ? ` (${date})` : ''}, ${text}`,
  differ: (c, cite) =>
    `Sources differ on ${c.subject}: ${c.claims.map((cl) => `${andList(cl.sources, 'and')} ${cl.sources.length > 1 ? 'say' : 'says'} ${cl.value}${cite(cl.results)}`).join(', ')}.`,
  overview: (topics) =>
    `Results cover ${andList(
      topics.map((t) => `${t.label} (${t.count})`),
      'and',
    )}.`,
  footer: (total, providers, aspects) =>
    `Found ${total} result${total === 1 ? '' : 's'} from ${andList(providers, 'and') || 'the providers'}; which aspect next${aspects.length > 0 ? ` — ${andList(aspects, 'or')}` : ''}?`,
  omitted: (count) => `… ${count} more result${count === 1 ? '' : 's'} omitted`,
  answerLabel: (source) => `Answer (${source})`,
  noneOnTopic: (query) =>
    `None of the top results is clearly about "${query}"; they are listed below as found, with no answer drawn from them.`,
  leadLabel: 'In short',
  topicLabel: 'Topic',
  otherLabel: 'Other results',
  resultsLabel: 'Results',
  topHeader: '**Top 5 most relevant results:**',
  noResults: 'No results.',
  relevance: 'relevance',
}

const ZH: Wording = {
  accordingTo: (source, text, date) => `根据 ${source}${date ? `(${date})` : ''},${text}`,
  differ: (c, cite) =>
    `存在不同说法(${c.subject}):${c.claims.map((cl) => `${cl.sources.join('、')} 认为 ${cl.value}${cite(cl.results)}`).join(',')}。`,
  overview: (topics) => `结果主要涉及${topics.map((t) => `${t.label}(${t.count} 条)`).join('、')}。`,
  footer: (total, providers, aspects) =>
    `共找到 ${total} 条结果,覆盖 ${providers.join('、') || '各来源'}。需要深入哪个方面${aspects.length > 0 ? `:${aspects.join('、')}` : ''}?`,
  omitted: (count) => `…另有 ${count} 条结果未显示`,
  answerLabel: (source) => `回答(${source})`,
  noneOnTopic: (query) => `排名靠前的结果都与“${query}”关系不大;以下按原样列出,未从中提炼回答。`,
  leadLabel: '要点',
  topicLabel: '主题',
  otherLabel: '其他结果',
  resultsLabel: '结果',
  topHeader: '**Top 5 最相关结果:**',
  noResults: '没有找到结果。',
  relevance: '相关度',
}

/** The wording for a language. */
export function wording(language: SynthesisLanguage): Wording {
  return language === 'zh' ? ZH : EN
}
