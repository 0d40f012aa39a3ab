import type { SynthesisResultInput } from '../src/index.js'

/** The clock every fixture is dated against. */
export const NOW = new Date('2026-11-20T12:00:00Z')

type R = SynthesisResultInput & { sources: string[] }

const r = (
  title: string,
  url: string,
  snippet: string,
  published_date: string | null,
  sources: string[],
  score: number,
): R => ({
  title,
  url,
  snippet,
  published_date,
  sources,
  source: sources.join(', '),
  score,
})

/** Twelve results for "rust async": a runtime topic, a futures/pinning topic and an unrelated outlier. */
export const RUST_ASYNC: R[] = [
  r(
    'Announcing Tokio 1.48 | Tokio',
    'https://tokio.rs/blog/2026-10-tokio-1-48',
    'Tokio 1.48 ships a faster multi-threaded scheduler and io_uring file operations behind a feature flag.',
    '2026-11-18T09:12:00Z',
    ['brave', 'exa'],
    0.91,
  ),
  r(
    'tokio-rs/tokio: A runtime for writing reliable asynchronous applications',
    'https://github.com/tokio-rs/tokio',
    'Tokio is an event-driven, non-blocking I/O runtime with a multi-threaded work-stealing scheduler.',
    '2026-10-30T16:04:00Z',
    ['exa'],
    0.88,
  ),
  r(
    'Pin in std::pin - Rust',
    'https://doc.rust-lang.org/std/pin/struct.Pin.html',
    'Pinning guarantees that a future is not moved in memory, which self-referential futures need.',
    '2026-09-18T00:00:00Z',
    ['brave'],
    0.86,
  ),
  r(
    'Choosing a scheduler for async Rust services',
    'https://blog.cloudflare.com/async-rust-scheduler',
    'A work-stealing scheduler balances tasks across worker threads; Tokio is the default runtime for most services.',
    '2026-08-02T00:00:00Z',
    ['tavily'],
    0.84,
  ),
  r(
    'The Future trait explained',
    'https://fasterthanli.me/articles/understanding-rust-futures-by-going-way-too-deep',
    'A future is polled by an executor; pinning keeps self-referential futures valid while they are polled.',
    '2026-05-11T00:00:00Z',
    ['exa', 'tavily'],
    0.8,
  ),
  r(
    'Async executors compared: Tokio, smol and async-std',
    'https://corrode.dev/blog/async/',
    'Tokio leads with a work-stealing scheduler; smol is a small executor; async-std is discontinued.',
    '2026-07-21T00:00:00Z',
    ['brave'],
    0.78,
  ),
  r(
    'Pinning, futures and self-referential structs',
    'https://without.boats/blog/pin/',
    'Why futures need pinning: a self-referential future would dangle if moved after being polled.',
    '2026-02-14T00:00:00Z',
    ['grok'],
    0.75,
  ),
  r(
    'How to bake sourdough bread at home',
    'https://www.kingarthurbaking.com/recipes/sourdough-bread',
    'Feed your starter the night before and bake the loaf in a preheated Dutch oven.',
    '2025-03-01T00:00:00Z',
    ['brave'],
    0.3,
  ),
]

/** Eighteen results: enough for the overview strategy. */
export const LARGE: R[] = [
  ...RUST_ASYNC.slice(0, 7),
  ...Array.from({ length: 11 }, (_, i) =>
    r(
      i % 2 === 0 ? `Tokio scheduler deep dive, part ${i + 1}` : `Async cancellation safety notes, part ${i + 1}`,
      `https://example${i}.dev/post-${i}`,
      i % 2 === 0
        ? 'The Tokio scheduler uses work-stealing across worker threads to keep tasks moving.'
        : 'Cancellation safety matters when a select branch drops a future midway through.',
      `2026-0${(i % 9) + 1}-10T00:00:00Z`,
      [i % 3 === 0 ? 'brave' : i % 3 === 1 ? 'exa' : 'tavily'],
      0.7 - i * 0.02,
    ),
  ),
]

/** Results in Chinese about Rust async programming. */
export const ZH_RESULTS: R[] = [
  r(
    'Rust 异步编程入门:从 Future 到 Tokio 运行时',
    'https://zhuanlan.zhihu.com/p/668543217',
    '本文介绍异步编程的核心概念:Future、Pin 以及 Tokio 运行时的任务调度模型。',
    '2026-09-01T00:00:00Z',
    ['brave', 'exa'],
    0.9,
  ),
  r(
    'Rust 异步编程详解(Tokio 实战)',
    'https://blog.csdn.net/weixin_43850384/article/details/135792261',
    '手把手教你使用 Tokio 运行时编写异步程序,包括任务调度和通道通信。',
    '2026-08-01T00:00:00Z',
    ['brave'],
    0.86,
  ),
  r(
    'Tokio 运行时的任务调度',
    'https://juejin.cn/post/7312345678901234567',
    'Tokio 运行时采用工作窃取调度器,在多个线程之间平衡任务。',
    '2026-07-01T00:00:00Z',
    ['exa'],
    0.84,
  ),
  r(
    '理解 Pin 与自引用结构',
    'https://rustcc.cn/article?id=pin-1',
    '自引用结构移动后指针会失效,因此 Future 需要 Pin 固定内存位置。',
    '2026-06-01T00:00:00Z',
    ['tavily'],
    0.8,
  ),
  r(
    'Pin 固定内存位置的原理',
    'https://www.cnblogs.com/rust/p/pin.html',
    'Pin 保证自引用结构不会在内存中移动,这是异步状态机安全的前提。',
    '2026-05-01T00:00:00Z',
    ['grok'],
    0.78,
  ),
  r(
    'Rust 异步生态综述',
    'https://www.infoq.cn/article/rust-async-ecosystem',
    '异步运行时之争:Tokio 运行时占据主导,smol 与 async-std 各有取舍。',
    '2026-04-01T00:00:00Z',
    ['brave'],
    0.74,
  ),
]
