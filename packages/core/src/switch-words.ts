// The words of an on/off setting, in any case: every switch of the house reads the same ones, so `0` never means on
// in one variable and off in another. No imports: the CLI reads a switch before it loads anything else.
const SWITCH_WORDS: Readonly<Record<string, boolean>> = {
  on: true,
  true: true,
  '1': true,
  off: false,
  false: false,
  '0': false,
}

/**
 * An on/off setting's value: true for `on`, `true` or `1`, false for `off`, `false` or `0` (any case, spaces trimmed),
 * undefined when unset or empty, null for any other word.
 */
export function switchValue(raw: string | undefined): boolean | undefined | null {
  if (raw === undefined || raw.trim() === '') return undefined
  return SWITCH_WORDS[raw.trim().toLowerCase()] ?? null
}

/** What a switch set to another word is told: its name and value, and the words it takes. */
export function switchMessage(name: string, raw: string): string {
  return `${name}=${JSON.stringify(raw.slice(0, 40))} is not allowed; use on or off.`
}
