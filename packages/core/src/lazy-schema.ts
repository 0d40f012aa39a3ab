/**
 * A schema built on its first use, then kept: for a schema only some paths need (a vendor's error body, a replay
 * file, a model's answer), so a process that never takes the path never builds it. Building zod schemas is CPU a
 * one-shot process pays at load; a search should build only what it parses. The type still comes from the schema,
 * written once: `z.infer<ReturnType<typeof braveErrorSchema>>`.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined
  return () => {
    schema ??= build()
    return schema
  }
}
