/** A zod issue path as the JSON path the error bodies name: `a.b[0].c`. */
export function jsonPath(path: readonly PropertyKey[], prefix = ''): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc === '' ? String(part) : `${acc}.${String(part)}`), prefix);
}
