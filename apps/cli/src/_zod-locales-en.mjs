// What the bundled CLI gets for zod's `locales` namespace (see tsup.config.ts).
//
// zod re-exports every locale as `z.locales`, and its root module exposes `z` as an object, so no bundler can drop
// the ones nobody uses: 260 KB, over half of zod in the CLI, parsed on every start-up. search-layer's messages are
// English, zod's default; `z.locales.en` stays, the others are not in the CLI.
export { default as en } from 'zod/v4/locales/en.js'
