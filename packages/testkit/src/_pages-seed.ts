import { readFileSync } from 'node:fs'
import type { PageSpec } from './types.js'

// Real GBK bytes (python3: html.encode('gbk')), so charset sniffing and decoding are exercised for real.
const GBK_ARTICLE_BASE64 =
  'PCFET0NUWVBFIGh0bWw+CjxodG1sIGxhbmc9InpoLUNOIj4KPGhlYWQ+CjxtZXRhIGNoYXJzZXQ9ImdiayI+Cjx0aXRsZT5SdXN0INLssr2x4LPMyrXVvaO6tNPB48q1z9bSu7j20uyyvdTL0NDKsSAtILy8yvWyqb/NPC90aXRsZT4KPG1ldGEgbmFtZT0iYXV0aG9yIiBjb250ZW50PSLN9dChw/ciPgo8bWV0YSBuYW1lPSJkZXNjcmlwdGlvbiIgY29udGVudD0isb7OxLTTweO/qsq8yrXP1tK7uPbX7tChtcQgUnVzdCDS7LK91MvQ0Mqxo6y9sr3iIEZ1dHVyZaGiV2FrZXIg0+vWtNDQxve1xLmk1/fUrcDtoaMiPgo8bWV0YSBwcm9wZXJ0eT0iYXJ0aWNsZTpwdWJsaXNoZWRfdGltZSIgY29udGVudD0iMjAyNi0xMC0xMlQwODozMDowMCswODowMCI+CjwvaGVhZD4KPGJvZHk+CjxoZWFkZXI+PG5hdj48YSBocmVmPSIvIj7K19KzPC9hPiB8IDxhIGhyZWY9Ii9hcmNoaXZlcyI+uem1tTwvYT4gfCA8YSBocmVmPSIvYWJvdXQiPrnY09o8L2E+PC9uYXY+PC9oZWFkZXI+CjxtYWluPgo8YXJ0aWNsZT4KPGgxPlJ1c3Qg0uyyvbHgs8zKtdW9o7q008HjyrXP1tK7uPbS7LK91MvQ0MqxPC9oMT4KPHAgY2xhc3M9ImJ5bGluZSI+1/fV36O6zfXQocP3IKGkILeisrzT2iAyMDI2xOoxMNTCMTLI1TwvcD4KPHA+UnVzdCC1xNLssr2x4LPMxKPQzbv509ogRnV0dXJlIMzY1feho8O/uPYgYXN5bmMguq/K/ba8u+Gxu7Hg0uvG99equ7vOqtK7uPbXtMysu/qjrNa00NDG982ouf2199PDIHBvbGwgt723qM3Gtq/L/MewvfihozwvcD4KPHA+tbEgRnV0dXJlIMnQzrS+zdD3yrGjrMv8u+Gxo7TmIFdha2Vyo6yyotTaIEkvTyDKwrz+tb2078qxu73Q0cjOzvGho1Rva2lvINTL0NDKsdTatMu7+bShyc/Ktc/Wwcu24M/fs8y5pNf3x9TIobX3tsjG96GjPC9wPgo8aDI+yrXP1tK7uPbX7tCh1rTQ0Mb3PC9oMj4KPHA+ztLDx8q508PSu7j2zai1wLGjtOa+zdD3yM7O8aOsw7+0zrTTzai1wMihs/bIzs7xsqK199PDIHBvbGyho83q1fu0+sLrvPsgPGEgaHJlZj0iaHR0cHM6Ly9naXRodWIuY29tL3Rva2lvLXJzL3Rva2lvIj50b2tpby1ycy90b2tpbzwvYT4g0tS8sCA8YSBocmVmPSJodHRwczovL3J1c3QtbGFuZy5naXRodWIuaW8vYXN5bmMtYm9vay8iPkFzeW5jIEJvb2s8L2E+oaM8L3A+CjwvYXJ0aWNsZT4KPC9tYWluPgo8Zm9vdGVyPjxwPrDmyKjL+dPQIDIwMjYgvLzK9bKpv80goaQgvqlJQ1CxuDEyMzQ1Njc4usU8L3A+PC9mb290ZXI+CjwvYm9keT4KPC9odG1sPgo='

const ENGLISH_ARTICLE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Structured concurrency in async Rust: a field guide | Ferris Weekly</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="author" content="Jane Doe">
<meta name="description" content="How to keep async Rust tasks from leaking: scopes, JoinSet, cancellation and timeouts.">
<meta property="og:title" content="Structured concurrency in async Rust: a field guide">
<meta property="article:published_time" content="2026-11-18T09:12:00Z">
<link rel="canonical" href="https://ferrisweekly.example/posts/structured-concurrency">
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments)}</script>
<style>body{font-family:system-ui;margin:0} nav a{margin-right:1rem}</style>
</head>
<body>
<header class="site-header">
  <nav aria-label="Main"><a href="/">Home</a><a href="/archive">Archive</a><a href="/newsletter">Newsletter</a><a href="/about">About</a></nav>
</header>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept all</button></div>
<main>
<article>
<h1>Structured concurrency in async Rust: a field guide</h1>
<p class="byline">By <span class="author">Jane Doe</span> · <time datetime="2026-11-18T09:12:00Z">November 18, 2026</time> · 9 min read</p>
<p>Spawning a task with <code>tokio::spawn</code> detaches it from its parent: if the caller is cancelled, the task keeps running. Structured concurrency restores the rule that a task never outlives the scope that started it.</p>
<h2>JoinSet and scopes</h2>
<p><a href="https://docs.rs/tokio/latest/tokio/task/struct.JoinSet.html">JoinSet</a> owns its tasks and aborts them on drop. Combine it with <code>tokio::time::timeout</code> to put a deadline on a whole fan-out.</p>
<h2>Cancellation safety</h2>
<p>Every <code>.await</code> is a potential cancellation point. Read the <a href="https://tokio.rs/tokio/tutorial/select">select! tutorial</a> and the discussion in <a href="https://github.com/tokio-rs/tokio/issues/1879">tokio#1879</a> before using <code>select!</code> in a loop.</p>
<p>Further reading: <a href="https://without.boats/blog/why-async-rust/">Why async Rust?</a> and <a href="/posts/cancellation">our cancellation post</a>.</p>
</article>
<aside class="related"><h3>Related posts</h3><ul><li><a href="/posts/pinning">Pinning, explained</a></li><li><a href="/posts/io-uring">io_uring in practice</a></li></ul></aside>
</main>
<footer class="site-footer"><p>&copy; 2026 Ferris Weekly · <a href="/privacy">Privacy</a> · <a href="/rss.xml">RSS</a></p></footer>
</body>
</html>
`

// A real PDF with a text layer (provenance in fixtures/pdf/README.md); `../fixtures` from src/ and from dist/ alike.
const PDF_URL = new URL('../fixtures/pdf/irs-form-1040-v-2013.pdf', import.meta.url)

/** Pages served by default under `/pages`. */
export function seedPages(): Map<string, PageSpec> {
  const pdf = readFileSync(PDF_URL)
  const binary = Buffer.alloc(4096)
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 131 + 7) % 256
  return new Map<string, PageSpec>([
    ['/article', { body: ENGLISH_ARTICLE, contentType: 'text/html; charset=utf-8' }],
    ['/zh-gbk', { body: Buffer.from(GBK_ARTICLE_BASE64, 'base64'), contentType: 'text/html' }],
    ['/binary', { body: binary, contentType: 'application/octet-stream' }],
    ['/form-1040-v.pdf', { body: pdf, contentType: 'application/pdf' }],
    ['/download/form-1040-v.pdf', { body: pdf, contentType: 'application/octet-stream' }],
    ['/paper', { body: pdf, contentType: 'application/pdf' }],
    [
      '/not-found',
      {
        body: '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
        contentType: 'text/html; charset=utf-8',
        status: 404,
      },
    ],
  ])
}
