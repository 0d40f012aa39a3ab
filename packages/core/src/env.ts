/** Environment variables as a plain map (defaults to `process.env` where a function takes one). */
export type Env = Readonly<Record<string, string | undefined>>
