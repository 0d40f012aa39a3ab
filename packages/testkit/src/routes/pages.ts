import { endless } from '../_server.js'
import type { Reply, ServiceRoutes } from '../_types.js'
import type { PageSpec } from '../types.js'

function errorPage(status: number): Reply {
  const titles: Record<number, string> = {
    403: 'Forbidden',
    404: 'Not Found',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
  }
  const title = `${status} ${titles[status] ?? 'Error'}`
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', server: 'nginx' },
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  }
}

/** Plain web pages: registered pages plus `/redirect?to=`, `/endless` and the seeded articles. */
export function pagesRoutes(pages: Map<string, PageSpec>): ServiceRoutes {
  return {
    handle(ctx) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return errorPage(405)
      if (ctx.path === '/redirect') {
        const to = ctx.query.get('to')
        if (!to) return errorPage(400)
        const status = Number(ctx.query.get('status') ?? 302)
        return {
          status: [301, 302, 303, 307, 308].includes(status) ? status : 302,
          headers: { location: to, 'content-type': 'text/html' },
          body: `<a href="${to}">Found</a>`,
        }
      }
      if (ctx.path === '/endless')
        return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, stream: endless }
      const page = pages.get(ctx.path)
      if (!page) return errorPage(404)
      return {
        status: page.status ?? 200,
        headers: { 'content-type': page.contentType ?? 'text/html; charset=utf-8', ...page.headers },
        body: ctx.method === 'HEAD' ? undefined : page.body,
      }
    },
    error(status) {
      return errorPage(status)
    },
  }
}
