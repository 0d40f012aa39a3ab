import type { Passage } from '@search-layer/passages'

/** A passage as `findPassages` returns it: `text` is the whole page here, so its offsets are 0 and its length. */
export function passage(id: string, text: string, url = `https://site-${id}.example/page`): Passage {
  return {
    id,
    url,
    title: `Page ${id}`,
    heading: 'Section',
    text,
    start: 0,
    end: text.length,
    score: 0.5,
    resultRank: 1,
  }
}

export const NODE = passage(
  'p1',
  'Node.js 18 ships the global **fetch** API, built on [undici](https://undici.nodejs.org), with no flag. ' +
    'It was marked experimental until Node.js 21.',
  'https://nodejs.org/en/blog/announcements/v18-release-announce',
)
export const RUST = passage(
  'p2',
  'Rust 1.75 稳定了 async fn in traits。这是异步生态的一个重要里程碑。',
  'https://blog.rust-lang.org/2023/12/28/Rust-1.75.0.html',
)
export const MDN = passage(
  'p3',
  'The Fetch API provides an interface for fetching resources (including across the network).',
  'https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API',
)
