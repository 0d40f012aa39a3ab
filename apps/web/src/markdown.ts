import { Marked, type Tokens } from 'marked'

// Thread text is untrusted: raw HTML is shown as text, links keep http(s) and mailto targets only, and images become
// links (the page's CSP would block remote images anyway). What comes out is safe to set as innerHTML.
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const safeHref = (href: string) => {
  try {
    const url = new URL(href, 'https://example.invalid/')
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) && !href.startsWith('/') ? url.href : null
  } catch {
    return null
  }
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    link({ href, title, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens)
      const safe = safeHref(href)
      if (!safe) return text
      return `<a href="${escapeHtml(safe)}"${title ? ` title="${escapeHtml(title)}"` : ''} target="_blank" rel="noopener noreferrer">${text}</a>`
    },
    image({ href, text }: Tokens.Image) {
      const safe = safeHref(href)
      return safe
        ? `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener noreferrer">[image: ${escapeHtml(text || 'untitled')}]</a>`
        : escapeHtml(text)
    },
  },
})

/** Renders untrusted markdown to HTML that carries no script, style or foreign-origin content. */
export function renderMarkdown(source: string): string {
  return marked.parse(source, { async: false }) as string
}
