// htmlToText as the chain of patterns it was before its tags were found by linear scanners; kept so property
// tests can hold the scanners to the same output. Never used outside tests.
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#x27': "'",
  '#x2F': '/',
  '#39': "'",
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (match, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : match
    }
    return ENTITIES[name] ?? ENTITIES[name.toLowerCase()] ?? match
  })
}

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
