/**
 * Writes a `DocumentModel` as a PDF with pdfkit (its built-in Helvetica: nothing to download, works
 * offline). pdfkit is imported lazily, so commands that print no PDF never load it.
 */
import { writeFile } from 'node:fs/promises';
import { CliError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import type { DocumentModel, Pair } from './model.ts';

// The standard PDF fonts encode WinAnsi only: characters outside it are spelled out or dropped.
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
function printable(text: string): string {
  return [...text.replaceAll('→', '->').replaceAll('✔', '').replaceAll('⚠', '!')]
    .map((ch) => (ch.charCodeAt(0) <= 0xff || WIN_ANSI_EXTRA.includes(ch) ? ch : '?'))
    .join('');
}

/** The PDF bytes of one document (A4). */
export async function renderPdf(doc: DocumentModel, author = 'travel'): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: printable(doc.title), Author: author, Creator: 'travel CLI' },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', () => resolve());
    pdf.on('error', reject);
  });
  const left = pdf.page.margins.left;
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;

  pdf.font('Helvetica-Bold').fontSize(18).text(printable(doc.title), left);
  pdf.moveDown(0.3);
  pdf.fontSize(10);
  drawPairs(pdf, doc.subtitle, left, width);
  for (const section of doc.sections) {
    pdf.moveDown(0.9);
    pdf.font('Helvetica-Bold').fontSize(12).text(printable(section.heading), left);
    pdf
      .moveTo(left, pdf.y + 2)
      .lineTo(left + width, pdf.y + 2)
      .lineWidth(0.5)
      .stroke('#888888');
    pdf.moveDown(0.4);
    pdf.fontSize(10);
    if (section.pairs) drawPairs(pdf, section.pairs, left, width);
    if (section.table) drawTable(pdf, section.table, left, width);
    pdf.font('Helvetica').fontSize(10);
    for (const line of section.lines ?? []) pdf.text(printable(line), left, undefined, { width });
  }
  if (doc.notes.length > 0) {
    pdf.moveDown(1);
    pdf.font('Helvetica').fontSize(8).fillColor('#444444');
    for (const line of doc.notes) pdf.text(printable(line), left, undefined, { width });
  }
  pdf.end();
  await ended;
  return Buffer.concat(chunks);
}

type Pdf = InstanceType<typeof import('pdfkit')>;

/** Labels in bold on the left, values lined up after the widest label. */
function drawPairs(pdf: Pdf, pairs: Pair[], left: number, width: number) {
  pdf.font('Helvetica-Bold');
  const labelWidth = Math.min(
    width / 2,
    Math.max(0, ...pairs.map(([l]) => pdf.widthOfString(printable(l)))) + 12,
  );
  for (const [label, value] of pairs) {
    const y = pdf.y;
    pdf.font('Helvetica-Bold').text(printable(label), left, y, { width: labelWidth });
    const afterLabel = pdf.y;
    pdf.font('Helvetica').text(printable(value), left + labelWidth, y, { width: width - labelWidth });
    pdf.x = left;
    pdf.y = Math.max(afterLabel, pdf.y);
  }
}

/** Widths that fit `available`: the widest columns are capped first, narrow ones keep their size. */
function fitWidths(natural: number[], available: number): number[] {
  if (natural.reduce((a, b) => a + b, 0) <= available) return natural;
  let lo = 0;
  let hi = Math.max(...natural);
  for (let i = 0; i < 30; i++) {
    const cap = (lo + hi) / 2;
    if (natural.reduce((a, w) => a + Math.min(w, cap), 0) > available) hi = cap;
    else lo = cap;
  }
  return natural.map((w) => Math.min(w, lo));
}

/** Columns as wide as their widest cell (shrunk evenly when the page is narrower), rows that wrap. */
function drawTable(pdf: Pdf, table: { headers: string[]; rows: string[][] }, left: number, width: number) {
  const gap = 8;
  const headers = table.headers.map(printable);
  const rows = table.rows.map((r) => r.map(printable));
  pdf.fontSize(9);
  const natural = headers.map((h, i) => {
    pdf.font('Helvetica-Bold');
    let w = pdf.widthOfString(h);
    pdf.font('Helvetica');
    for (const r of rows) w = Math.max(w, pdf.widthOfString(r[i] ?? ''));
    return w + 1;
  });
  const widths = fitWidths(natural, width - gap * (natural.length - 1));
  const row = (cells: string[], bold: boolean) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    const heights = cells.map((c, i) => pdf.heightOfString(c || ' ', { width: widths[i] ?? 10 }));
    const height = Math.max(...heights);
    if (pdf.y + height > pdf.page.height - pdf.page.margins.bottom) pdf.addPage();
    const y = pdf.y;
    let x = left;
    cells.forEach((c, i) => {
      pdf.text(c, x, y, { width: widths[i] ?? 10 });
      x += (widths[i] ?? 0) + gap;
    });
    pdf.x = left;
    pdf.y = y + height + 3;
  };
  row(headers, true);
  for (const r of rows) row(r, false);
  pdf.x = left;
}

/** Writes the PDF to `file`; a path that cannot be written is a plain error naming it. */
export async function writePdf(doc: DocumentModel, file: string): Promise<number> {
  const bytes = await renderPdf(doc);
  try {
    await writeFile(file, bytes);
  } catch (error) {
    throw new CliError(
      `cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`,
      ExitCode.failed,
    );
  }
  return bytes.length;
}
