import { describe, expect, it } from 'vitest'
import { type Thread, ThreadSchema, extractRefs, refsToMarkdown, threadToMarkdown } from './index.js'

const thread: Thread = {
  url: 'https://github.com/octo/demo/pull/2',
  type: 'github_pr',
  title: 'Add a deadline to every outbound request',
  body: 'Closes #1.',
  state: 'merged',
  labels: ['enhancement'],
  comments: [
    {
      id: '1',
      kind: 'comment',
      author: 'monalisa',
      body: 'Could you add a test?\n\nThanks!',
      createdAt: '2026-03-02T11:00:00Z',
    },
    { id: '2', kind: 'review', author: 'defunkt', body: 'LGTM', createdAt: null, reviewState: 'APPROVED' },
    {
      id: '3',
      kind: 'review_comment',
      author: null,
      body: 'nit: units in names',
      createdAt: null,
      path: 'src/http.ts',
      line: 42,
    },
  ],
  refs: extractRefs('Closes #1. See https://example.com/a and octo/demo#7', { repo: 'octo/demo' }),
  links: [],
  metadata: { author: 'hubot', createdAt: '2026-03-02T10:00:00Z', truncated: { comments: { returned: 3, cut: 5 } } },
}

describe('threadToMarkdown', () => {
  it('renders header, comments with their kind, what was cut, and references by type', () => {
    expect(ThreadSchema.parse(thread)).toEqual(thread)
    const md = threadToMarkdown(thread)
    expect(md).toMatch(/^# Add a deadline to every outbound request\n/)
    expect(md).toContain('github_pr · merged · by @hubot · 2026-03-02T10:00:00Z · labels: enhancement')
    expect(md).toContain('**@monalisa** · 2026-03-02T11:00:00Z\n\n> Could you add a test?\n>\n> Thanks!')
    expect(md).toContain('**@defunkt** (review APPROVED)')
    expect(md).toContain('**@ghost** (on src/http.ts:42)')
    expect(md).toContain('_5 more comments not included (returned 3)._')
    expect(md.indexOf('### Closes (1)')).toBeLessThan(md.indexOf('### Issues (1)'))
    expect(md).toContain('- [#1](https://github.com/octo/demo/issues/1) — Closes #1.')
    expect(md).toContain('### Links (1)')
  })

  it('says when there are no references', () => {
    expect(refsToMarkdown([])).toBe('_No references._')
  })
})
