/** Runs at most `max` tasks at once; the rest wait in order. */
export function createLimiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0
  const queue: (() => void)[] = []
  const next = () => {
    if (active >= max) return
    const start = queue.shift()
    if (start) {
      active++
      start()
    }
  }
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            active--
            next()
          })
      })
      next()
    })
}

/** Maps `items` with at most `max` calls in flight, keeping order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  max: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const limit = createLimiter(Math.max(1, max))
  return Promise.all(items.map((item, i) => limit(() => fn(item, i))))
}
