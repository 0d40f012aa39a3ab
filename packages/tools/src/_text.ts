/**
 * Cuts text to `maxChars` at the last paragraph or line break that keeps most of it, and says how much was left
 * out, so an agent knows the page goes on (and can ask for less elsewhere) instead of seeing a silent cut.
 */
export function fitText(text: string, maxChars: number): { text: string; truncated: boolean; omittedChars: number } {
  if (text.length <= maxChars) return { text, truncated: false, omittedChars: 0 }
  const note = (n: number) => `\n\n[… ${n} more characters not shown]`
  const room = Math.max(0, maxChars - note(text.length).length)
  let cut = text.lastIndexOf('\n\n', room)
  if (cut < room * 0.7) cut = text.lastIndexOf('\n', room)
  if (cut < room * 0.7) cut = room
  // Never split a UTF-16 surrogate pair (emoji, rare Han characters).
  if (cut > 0 && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1
  const kept = text.slice(0, cut).trimEnd()
  return { text: kept + note(text.length - kept.length), truncated: true, omittedChars: text.length - kept.length }
}

/** One line, whitespace collapsed, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`
}
