/** Where a JSON text first goes wrong: 1-based line and column, and what was expected there. */
export interface JsonErrorLocation {
  offset: number
  line: number
  column: number
  /** e.g. `expected "," or "}" after a property value, found "x"` — at most one character of the text. */
  problem: string
}

class JsonSyntax extends Error {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {
    super(expected)
  }
}

/**
 * Finds the first syntax error in a JSON text, or `undefined` when it parses. V8's own messages quote the
 * surrounding text (a config file's keys with it) and only sometimes give a position, so the file is scanned here.
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let i = 0
  const fail = (expected: string): never => {
    throw new JsonSyntax(i, expected)
  }
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail('expected a value (an object, array, string, number, true, false or null)')
  }
  const string = () => {
    i++ // the opening quote
    while (i < text.length) {
      const c = text[i]!
      if (c === '"') {
        i++
        return
      }
      if (c < ' ') fail('expected the string to end with " before the line ends (or \\n for a line break)')
      if (c === '\\') {
        const e = text[i + 1]
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2
            fail('expected four hex digits after \\u')
          }
          i += 6
          continue
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) {
          i++
          fail('expected an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX')
        }
        i += 2
        continue
      }
      i++
    }
    fail('expected the string to end with "')
  }
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i))
    if (!match) fail('expected a number')
    i += match![0].length
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') object()
    else if (c === '[') array()
    else if (c === '"') string()
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number()
    else if (c === 't') literal('true')
    else if (c === 'f') literal('false')
    else if (c === 'n') literal('null')
    else fail('expected a value (an object, array, string, number, true, false or null)')
  }
  const object = () => {
    i++
    ws()
    if (text[i] === '}') {
      i++
      return
    }
    for (;;) {
      ws()
      if (text[i] !== '"') fail('expected a property name in double quotes')
      string()
      ws()
      if (text[i] !== ':') fail('expected ":" after the property name')
      i++
      value()
      ws()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === '}') {
        i++
        return
      }
      fail('expected "," or "}" after a property value')
    }
  }
  const array = () => {
    i++
    ws()
    if (text[i] === ']') {
      i++
      return
    }
    for (;;) {
      value()
      ws()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === ']') {
        i++
        return
      }
      fail('expected "," or "]" after an array element')
    }
  }

  try {
    value()
    ws()
    if (i < text.length) fail('expected the end of the file after the JSON value')
    return undefined
  } catch (error) {
    if (!(error instanceof JsonSyntax)) throw error
    return describeAt(text, error.offset, error.expected)
  }
}

function describeAt(text: string, offset: number, expected: string): JsonErrorLocation {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  const found = offset < text.length ? `found ${JSON.stringify(text[offset])}` : 'found the end of the file'
  return { offset, line, column, problem: `${expected}, ${found}` }
}
