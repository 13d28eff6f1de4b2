// Structural check of a PDF as a reader opens it (no poppler on the test machines): header, the
// startxref pointing at the xref table, each xref offset at its "N 0 obj", the trailer's root, and
// the page's text as shown by its Tj operators.

/** What is wrong with the PDF's structure (empty when a reader can open it). */
export function pdfProblems(pdf: Buffer): string[] {
  const s = pdf.toString('latin1');
  const problems: string[] = [];
  if (!s.startsWith('%PDF-1.')) problems.push('no %PDF-1.x header');
  if (!s.trimEnd().endsWith('%%EOF')) problems.push('no %%EOF at the end');
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(s);
  if (!start) return [...problems, 'no startxref'];
  const xrefAt = Number(start[1]);
  const xref = /^xref\s+0 (\d+)\s+/.exec(s.slice(xrefAt));
  if (!xref) return [...problems, `startxref ${xrefAt} does not point at an xref table`];
  const count = Number(xref[1]);
  const entriesAt = xrefAt + xref[0].length;
  for (let n = 1; n < count; n++) {
    const entry = s.slice(entriesAt + n * 20, entriesAt + (n + 1) * 20);
    const offset = Number(entry.slice(0, 10));
    if (!s.startsWith(`${n} 0 obj`, offset))
      problems.push(`xref entry ${n} (${offset}) is not at "${n} 0 obj"`);
  }
  const root = /trailer\s*<<[^>]*\/Root (\d+) 0 R/.exec(s);
  if (!root || !new RegExp(`${root[1]} 0 obj\\s*<< /Type /Catalog`).test(s)) problems.push('no catalog root');
  if (!/\/Type \/Page\b/.test(s)) problems.push('no page');
  return problems;
}

/** The text the PDF's pages show, one entry per Tj string. */
export function pdfText(pdf: Buffer): string[] {
  return [...pdf.toString('latin1').matchAll(/\(((?:[^()\\]|\\.)*)\) Tj/g)].map((m) =>
    (m[1] ?? '').replace(/\\(.)/g, '$1'),
  );
}
