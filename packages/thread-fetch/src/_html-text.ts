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

// Comments are written by anyone: every pattern below would re-read the rest of the text from each `<pre`, `<a`,
// `<img`, `<` or space if what closes it never comes. Each runs only over the part of the text before the last
// thing that can close it (past which it cannot match), and trailing blanks are trimmed line by line.

/** `text.replace(re, replacer)` applied to the text up to the end of the last match of `closer` only. */
function replaceBeforeLast(
  text: string,
  closer: RegExp,
  re: RegExp,
  replacer: (substring: string, ...groups: string[]) => string,
): string {
  let end = 0
  for (const m of text.matchAll(closer)) end = m.index + m[0].length
  return text.slice(0, end).replace(re, replacer) + text.slice(end)
}

/** Spaces and tabs at the end of every line but the last (the last has no newline after it). */
function trimLineEnds(text: string): string {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!
    let end = line.length
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
    lines[i] = line.slice(0, end)
  }
  return lines.join('\n')
}

/**
 * The small HTML subset of HN comments and V2EX replies (`<p>`, `<a>`, `<i>`, `<pre><code>`, `<br>`, `<img>`)
 * as markdown-ish text, so links stay `[text](url)` for the reference extractor.
 */
export function htmlToText(html: string): string {
  let out = html.replace(/\r\n?/g, '\n')
  out = replaceBeforeLast(
    out,
    /<\/pre>/gi,
    /<pre[^>]*>\s*(?:<code[^>]*>)?([\s\S]*?)(?:<\/code>\s*)?<\/pre>/gi,
    (_m, code: string) => `\n\n\`\`\`\n${stripTags(code)}\n\`\`\`\n\n`,
  )
  out = replaceBeforeLast(
    out,
    /<\/a>/gi,
    /<a\s[^>]*?href\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi,
    (_m, _q, href: string, text: string) => {
      const label = stripTags(text).trim()
      const url = decodeEntities(href)
      return label === '' || decodeEntities(label) === url ? url : `[${label}](${url})`
    },
  )
  out = replaceBeforeLast(
    out,
    />/g,
    /<img\s[^>]*?src\s*=\s*(["'])(.*?)\1[^>]*>/gi,
    (_m, _q, src: string) => ` ${decodeEntities(src)} `,
  )
  out = out.replace(/<br\s*\/?>/gi, '\n')
  out = replaceBeforeLast(out, />/g, /<\/?p[^>]*>/gi, () => '\n\n')
  out = out
    .replace(/<\/?(?:i|em)>/gi, '*')
    .replace(/<\/?(?:b|strong)>/gi, '**')
    .replace(/<\/?code>/gi, '`')
  out = stripTags(out)
  return trimLineEnds(decodeEntities(out))
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function stripTags(html: string): string {
  return replaceBeforeLast(html, />/g, /<[^>]+>/g, () => '')
}
