// The bundle's copy of page-fetch's extraction worker: the pool starts `extract-worker.js` beside the chunk that
// holds it, so the CLI ships it as an entry of its own in dist/.
import '@search-layer/page-fetch/extract-worker'
