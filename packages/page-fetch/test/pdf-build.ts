// PDFs written from raw syntax (ISO 32000-1 §7.5) for tests: ordinary ones, and hostile ones no PDF library
// would agree to write (page trees of thousands of pages, objects nested thousands deep, decompression bombs).
import { deflateSync } from 'node:zlib'

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'

/** One indirect object's body (what goes between `n 0 obj` and `endobj`). */
type PdfObject = string | Buffer

/** A whole file: header, the objects numbered from 1, a cross-reference table and a trailer naming `root`. */
export function writePdf(objects: readonly PdfObject[], trailer: string): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  let offset = parts[0]?.length ?? 0
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(offset)
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ])
    parts.push(chunk)
    offset += chunk.length
  })
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`]
  for (const at of offsets) xref.push(`${String(at).padStart(10, '0')} 00000 n \n`)
  xref.push(`trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`)
  parts.push(Buffer.from(xref.join(''), 'latin1'))
  return Buffer.concat(parts)
}

/** A stream object; `deflate` compresses `data` with /FlateDecode. */
function streamObject(data: Buffer, deflate = false): Buffer {
  // Fastest level: a bomb of one repeated unit still shrinks about 200 times, in a fraction of level 9's time.
  const body = deflate ? deflateSync(data, { level: 1 }) : data
  const filter = deflate ? ' /Filter /FlateDecode' : ''
  return Buffer.concat([
    Buffer.from(`<< /Length ${body.length}${filter} >>\nstream\n`, 'latin1'),
    body,
    Buffer.from('\nendstream', 'latin1'),
  ])
}

/** Content that shows `lines` one under another, then the paragraphs' gap between blank-line-separated groups. */
function showText(text: string): Buffer {
  const escapeLine = (line: string) => line.replace(/([\\()])/g, '\\$1')
  const ops = ['BT', '/F1 12 Tf', '14 TL', '72 720 Td']
  for (const line of text.split('\n')) ops.push(line === '' ? 'T*' : `(${escapeLine(line)}) Tj T*`)
  ops.push('ET')
  return Buffer.from(ops.join('\n'), 'latin1')
}

/** A PDF with one page per entry of `pages` (its text; '' for a page with no text), and `info` as its /Info. */
export function textPdf(pages: readonly string[], info?: Record<string, string>): Buffer {
  // 1 catalog, 2 page tree, 3 font, 4 info, then a page and its content for each page.
  const kids = pages.map((_, i) => `${5 + 2 * i} 0 R`).join(' ')
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
    FONT,
    `<< ${Object.entries(info ?? {})
      .map(([key, value]) => `/${key} (${value})`)
      .join(' ')} >>`,
  ]
  pages.forEach((text, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${6 + 2 * i} 0 R >>`,
    )
    objects.push(streamObject(text === '' ? Buffer.from('0 0 m 100 100 l S', 'latin1') : showText(text)))
  })
  return writePdf(objects, '/Root 1 0 R /Info 4 0 R')
}

/** `count` pages in one flat page tree, every page drawing the same short text (a "PDF bomb" by page count). */
export function manyPagesPdf(count: number): Buffer {
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    FONT,
    streamObject(showText('The same page, again.')),
  ]
  const kids: string[] = []
  for (let i = 0; i < count; i++) {
    kids.push(`${5 + i} 0 R`)
    objects.push('<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>')
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${count} /MediaBox [0 0 612 792] >>`
  return writePdf(objects, '/Root 1 0 R')
}

/** A one-page PDF whose page carries an array nested `depth` deep (0: none), and whose page tree is `treeDepth` levels deep. */
export function deepNestingPdf(depth: number, treeDepth: number): Buffer {
  // 1 catalog, 2 font, 3 content, 4 the page, then the chain of page-tree nodes from the root down.
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 5 0 R >>',
    FONT,
    streamObject(showText('Under a deep tree.')),
    `<< /Type /Page /Parent ${4 + treeDepth} 0 R /Resources << /Font << /F1 2 0 R >> >> /Contents 3 0 R /Nested ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
  ]
  for (let level = 0; level < treeDepth; level++) {
    const self = 5 + level
    const kid = level === treeDepth - 1 ? 4 : self + 1
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`
    objects.push(`<< /Type /Pages /Kids [${kid} 0 R] /Count 1${parent} /MediaBox [0 0 612 792] >>`)
  }
  return writePdf(objects, '/Root 1 0 R')
}

/** A one-page PDF whose content stream inflates from a few hundred KB to `inflatedBytes` of `unit` repeated. */
export function inflationBombPdf(inflatedBytes: number, unit: string): Buffer {
  const content = Buffer.alloc(inflatedBytes, unit, 'latin1')
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    FONT,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    streamObject(content, true),
  ]
  return writePdf(objects, '/Root 1 0 R')
}

/** A one-page PDF encrypted with the standard security handler under a user password nobody knows. */
export function encryptedPdf(): Buffer {
  const pdf = textPdf(['secret'])
  const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90'
  const encrypt = `<< /Filter /Standard /V 1 /R 2 /O <${key}> /U <${key}> /P -3904 >>`
  // The trailer gains /Encrypt and /ID; objects stay as written (a reader refuses before decrypting any).
  const text = pdf.toString('latin1')
  const withEncrypt = text.replace(
    '/Root 1 0 R',
    `/Root 1 0 R /Encrypt ${encrypt} /ID [<${key.slice(0, 32)}> <${key.slice(0, 32)}>]`,
  )
  return Buffer.from(withEncrypt, 'latin1')
}
