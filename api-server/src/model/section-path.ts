/** The dotted path of a field in a YAML section, as every settings error names it: `cluster.brokers[0]`. */
export function sectionPath(section: string, path: readonly PropertyKey[]): string {
  return [section, ...path].map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').slice(1);
}
