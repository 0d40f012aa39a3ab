import { defineConfig } from 'tsup'

// The bench runs the BUILT workspace packages (their dist), as users would; only the harness is bundled.
// The emulator and the server run in child processes of their own, so each has its own entry.
export default defineConfig({
  entry: {
    bench: 'src/main.ts',
    'emulator-child': 'src/emulator-child.ts',
    'server-child': 'src/server-child.ts',
    'profile-summary': 'src/profile-summary.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
})
