import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { useEmulator } from '@search-layer/testkit/vitest'
import { beforeAll, describe, expect, it } from 'vitest'
import { runBin } from './_run.js'

const emu = useEmulator({ resetEachTest: false })
beforeAll(async () => {
  emu.pages.set('/nested-divs', {
    body: `<html><head><title>Deep</title></head><body>${'<div>'.repeat(1200)}<p>Deep inside the nesting.</p>${'</div>'.repeat(1200)}</body></html>`,
    contentType: 'text/html; charset=utf-8',
  })
})

const env = (): Record<string, string> => ({ ...emu.env, HOME: mkdtempSync(join(tmpdir(), 'sl-cli-home-')) })
// A hang guard, far above any real run: a worker pool that kept the process alive would end here, killed.
const HANG_GUARD = { killAfterMs: 60_000 }

describe('fetch reads pages through the bundled extraction worker (built bin, emulator)', () => {
  it('a normal page comes out as readable markdown and the process exits on its own', async () => {
    const r = await runBin(['fetch', `${emu.urls.pages}/article`, '--format', 'markdown'], env(), undefined, HANG_GUARD)
    expect(r.signal).toBeNull()
    // No "extract-worker.js was not found" warning: the bundle found its worker.
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^# Structured concurrency in async Rust/)
    expect(r.stdout).toContain('## JoinSet and scopes')
    expect(r.stdout).toContain('[JoinSet](https://docs.rs/tokio/latest/tokio/task/struct.JoinSet.html)')
    expect(r.stdout).not.toContain('Shown as plain text')
    expect(r.stdout).not.toContain('cookie')
  })

  it('1,200 nested <div>s degrade to plain text with the reason shown, exit 0', async () => {
    const url = `${emu.urls.pages}/nested-divs`
    const r = await runBin(['fetch', url, '--format', 'markdown'], env(), undefined, HANG_GUARD)
    expect(r.signal).toBeNull()
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^# Deep\n/)
    expect(r.stdout).toMatch(
      /> Shown as plain text: page too complex for readable extraction: 1,20\d levels of nesting \(limit 256\)\./,
    )
    expect(r.stdout).toContain('Deep inside the nesting.')
    expect(r.stdout).not.toContain('<div>')

    const json = await runBin(['fetch', url, '--json'], env(), undefined, HANG_GUARD)
    expect(json.signal).toBeNull()
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      title: 'Deep',
      degraded: expect.stringMatching(/levels of nesting \(limit 256\)$/),
      readerable: false,
    })
  })
})

describe('fetch reads PDFs in the bundled worker (built bin, emulator)', () => {
  it.each(['/form-1040-v.pdf', '/download/form-1040-v.pdf'])(
    'the real PDF at %s comes out as page-marked markdown, and as JSON',
    async (path) => {
      const url = `${emu.urls.pages}${path}`
      const r = await runBin(['fetch', url, '--format', 'markdown'], env(), undefined, HANG_GUARD)
      expect(r.signal).toBeNull()
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(/^# 2013 Form 1040-V Department of the Treasury\n\n_SE:W:CAR:MP · 2014-01-02_ — </)
      expect(r.stdout).toMatch(/\n<!-- page 1 -->\n\n2013 Form 1040-V Department of the Treasury\n/)
      expect(r.stdout).toContain('What Is Form 1040-V')

      const json = await runBin(['fetch', url, '--json'], env(), undefined, HANG_GUARD)
      expect(json.code).toBe(0)
      expect(JSON.parse(json.stdout)).toMatchObject({
        url,
        title: '2013 Form 1040-V Department of the Treasury',
        markdown: expect.stringMatching(/^<!-- page 1 -->\n\n/),
        readerable: false,
      })
    },
  )

  it('a PDF without text fails as empty, exit 1, nothing on stdout', async () => {
    emu.pages.set('/blank.pdf', {
      body: Buffer.from(
        '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
        'latin1',
      ),
      contentType: 'application/pdf',
    })
    const r = await runBin(['fetch', `${emu.urls.pages}/blank.pdf`], env(), undefined, HANG_GUARD)
    expect(r.signal).toBeNull()
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^search-layer fetch: empty: .*blank\.pdf has no text layer in its first 1 page\(s\)/)
  })
})
