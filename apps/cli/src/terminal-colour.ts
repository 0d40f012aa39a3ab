/**
 * Whether `stream` is a terminal that takes colour and styles: a TTY, no `NO_COLOR` (any non-empty value, as
 * no-color.org says), and a `TERM` other than dumb.
 */
export function colourTerminal(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb'
}
