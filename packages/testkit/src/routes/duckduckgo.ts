import type { Reply, RouteContext, ServiceRoutes } from '../_types.js'
import { DAY_MS, digest, hashInt } from '../_util.js'
import { corpusFor, queryTerms, snippet } from '../corpus.js'

// NOTE(duckduckgo): html.duckduckgo.com/html/ is a plain HTML page. Organic hits are `div.result` with
// `a.result__a` (title, href direct or `//duckduckgo.com/l/?uddg=<target>&rut=…`) and `a.result__snippet`; ads are
// `div.result--ad` linking to `duckduckgo.com/y.js`. When it suspects a bot it serves the "anomaly" challenge page
// instead of results (HTTP 202, sometimes 200). Markup follows recorded pages (providers-duckduckgo/test/fixtures).
const DF_DAYS: Record<string, number> = { d: 1, w: 7, m: 31, y: 365 }

const esc = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')

function bold(text: string, query: string): string {
  let out = esc(text)
  for (const term of queryTerms(query))
    out = out.replace(new RegExp(`(${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'gi'), '<b>$1</b>')
  return out
}

function page(query: string, body: string): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html>
<head>
  <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  <title>${esc(query)} at DuckDuckGo</title>
</head>
<body class="body--html">
  <div class="serp__results"><div id="links" class="results">
${body}
  </div></div>
</body>
</html>
`
}

function organic(href: string, display: string, title: string, text: string, date?: string): string {
  return `    <div class="result results_links results_links_deep web-result ">
      <div class="links_main links_deep result__body"> <!-- This is the visible part -->
        <h2 class="result__title">
          <a rel="nofollow" class="result__a" href="${href}">${title}</a>
        </h2>
        <div class="result__extras">
          <div class="result__extras__url">
            <a class="result__url" href="${href}">${esc(display)}</a>
            ${date ? `<span>&nbsp; &nbsp; ${date.slice(0, 19)}.0000000</span>` : ''}
          </div>
        </div>
        <a class="result__snippet" href="${href}">${text}</a>
        <div class="clear"></div>
      </div>
    </div>`
}

function ad(query: string): string {
  const href = `https://duckduckgo.com/y.js?ad_domain=ads.example.com&amp;ad_provider=bingv7aa&amp;ad_type=txad&amp;u3=${digest(query, 24)}`
  return `    <div class="result results_links results_links_deep result--ad ">
      <div class="links_main links_deep result__body">
        <h2 class="result__title">
          <a rel="nofollow" class="result__a" href="${href}">${esc(query)} — Buy Now | Official Store</a>
          <a class="badge--ad" href="https://duckduckgo.com/duckduckgo-help-pages/company/ads-by-microsoft-on-duckduckgo-private-search">Ad</a>
        </h2>
        <a class="result__snippet" href="${href}">Sponsored: the best deals on ${esc(query)}.</a>
      </div>
    </div>`
}

function results(ctx: RouteContext): Reply {
  const params = ctx.method === 'POST' ? new URLSearchParams(ctx.rawBody.toString('utf8')) : ctx.query
  const query = params.get('q')?.trim() ?? ''
  if (!query) return { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: page('', '') }
  const df = params.get('df') ?? ''
  const range = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(df)
  const bounds = range
    ? { after: new Date(`${range[1]}T00:00:00Z`), before: new Date(`${range[2]}T23:59:59Z`) }
    : DF_DAYS[df]
      ? { after: new Date(ctx.now.getTime() - DF_DAYS[df]! * DAY_MS) }
      : {}
  const docs = corpusFor(query, { count: 10, now: ctx.now, ...bounds })
  const hits = docs.map((doc) => {
    // Half the hits go through DuckDuckGo's redirect, as on many recorded pages.
    const redirect = hashInt(`redirect\u0000${doc.url}`) % 2 === 0
    const href = redirect
      ? `//duckduckgo.com/l/?uddg=${encodeURIComponent(doc.url)}&amp;rut=${digest(doc.url, 64)}`
      : esc(doc.url)
    const display = doc.url.replace(/^https?:\/\//, '').replace(/\/$/, '')
    const dated = df !== '' || hashInt(`date\u0000${doc.url}`) % 3 === 0
    return organic(
      href,
      display,
      bold(doc.title, query),
      bold(snippet(doc, query), query),
      dated ? doc.publishedAt : undefined,
    )
  })
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
    body: page(query, [ad(query), ...hits].join('\n')),
  }
}

function anomaly(status: number, query: string): Reply {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
    body: `<!-- <!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"> -->
<html>
<head><title>DuckDuckGo</title></head>
<body>
  <form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&cc=sre&st=1776836598&gk=d4cd0dabcf4caa22ad92fab40844c786&q=${encodeURIComponent(query)}" method="POST">
    <div class="anomaly-modal__mask">
      <div class="anomaly-modal__modal" data-testid="anomaly-modal">
        <div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
        <div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
        <div class="anomaly-modal__instructions">Select all squares containing a duck:</div>
      </div>
    </div>
  </form>
</body>
</html>
`,
  }
}

/**
 * DuckDuckGo's HTML endpoint: `GET|POST /html/` with `q`, `kl` (region), `df` (d/w/m/y or `A..B`). Faults:
 * `{status: 202, code: 'anomaly'}` (or status 200) serve the bot challenge page; other statuses a bare error page.
 */
export function duckduckgoRoutes(): ServiceRoutes {
  return {
    handle(ctx) {
      if ((ctx.method === 'GET' || ctx.method === 'POST') && (ctx.path === '/html/' || ctx.path === '/html'))
        return results(ctx)
      return { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>Not Found</body></html>' }
    },
    error(status, code, ctx) {
      if (code === 'anomaly' || status === 202) return anomaly(status, ctx.query.get('q') ?? '')
      return {
        status,
        headers: { 'content-type': 'text/html; charset=UTF-8' },
        body: `<html><head><title>${status}</title></head><body><h1>${status}</h1></body></html>`,
      }
    },
  }
}
