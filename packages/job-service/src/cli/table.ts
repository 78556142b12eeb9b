// A plain-text table for terminal summaries: columns padded to their widest cell, numbers right-aligned.
export function textTable(header: string[], rows: Array<Array<string | number>>): string[] {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const numeric = header.map((_, c) => rows.length > 0 && rows.every((r) => typeof r[c] === 'number'));
  const width = header.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  return cells.map((r) =>
    r
      .map((cell, c) => (numeric[c] ? cell.padStart(width[c]!) : cell.padEnd(width[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** Significant digits for display; keeps small p-values readable (1.2e-9). */
export function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'NA';
  if (x !== 0 && Math.abs(x) < 1e-3) return x.toExponential(1);
  return Number(x.toPrecision(digits)).toString();
}
