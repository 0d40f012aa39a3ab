import { setImmediate as nextTurn } from 'node:timers/promises'
import { beforeEach } from 'vitest'

// Each test starts after one turn of the event loop. A vitest worker reports to its runner over RPC with a fixed 60 s
// timeout (birpc's; no option sets it) and reads the answers only when its event loop turns, which a file of
// synchronous tests never lets it do between tests: on a loaded two-core host, 181 extraction pages in a row took
// 64-66 s, every test passed, and the run failed with 81 "Timeout calling onTaskUpdate" errors. A turn costs
// microseconds a test.
beforeEach(() => nextTurn())
