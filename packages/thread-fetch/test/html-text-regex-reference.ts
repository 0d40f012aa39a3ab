// htmlToText as the chain of patterns it was before its tags were found by linear scanners; kept so property
// tests can hold the scanners to the same output. Never used outside tests.
// Entities are decoded by core's one decoder on both sides: what this reference holds fixed is the tag patterns.
import { decodeEntities } from '@search-layer/core/text'

/**
 * The small HTML subset of HN comments and V2EX replies (`<p>`, `<a>`, `<i>`, `<pre><code>`, `<br>`, `<img>`)
 * as markdown-ish text, so links stay `[text](url)` for the reference extractor.
 */
export function htmlToTextByRegex(html: string): string {
  let out = html.replace(/\r\n?/g, '\n')
  out = out.replace(
    /<pre[^>]*>\s*(?:<code[^>]*>)?([\s\S]*?)(?:<\/code>\s*)?<\/pre>/gi,
    (_m, code: string) => `\n\n\`\`\`\n${code.replace(/<[^>]+>/g, '')}\n\`\`\`\n\n`,
  )
  out = out.replace(
    /<a\s[^>]*?href\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi,
    (_m, _q, href: string, text: string) => {
      const label = text.replace(/<[^>]+>/g, '').trim()
      const url = decodeEntities(href)
      return label === '' || decodeEntities(label) === url ? url : `[${label}](${url})`
    },
  )
  out = out.replace(/<img\s[^>]*?src\s*=\s*(["'])(.*?)\1[^>]*>/gi, (_m, _q, src: string) => ` ${decodeEntities(src)} `)
  out = out.replace(/<br\s*\/?>/gi, '\n').replace(/<\/?p[^>]*>/gi, '\n\n')
  out = out
    .replace(/<\/?(?:i|em)>/gi, '*')
    .replace(/<\/?(?:b|strong)>/gi, '**')
    .replace(/<\/?code>/gi, '`')
  out = out.replace(/<[^>]+>/g, '')
  return decodeEntities(out)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
