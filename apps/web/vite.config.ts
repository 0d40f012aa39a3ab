import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

// Static assets for apps/server to serve at `/`: hashed names under /assets, no source maps in the shipped CLI.
export default defineConfig({
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
  server: {
    proxy: { '/v1': 'http://127.0.0.1:8787', '/api': 'http://127.0.0.1:8787', '/mcp': 'http://127.0.0.1:8787' },
  },
})
