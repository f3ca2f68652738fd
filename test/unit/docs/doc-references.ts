/**
 * Finds the references of the source tree into the design documents (docs/design/*.md) and the
 * relative links of the Markdown files, so a test can check that each one resolves.
 *
 * Reference forms (each seen in the tree):
 * - qualified: `analytics.md §4.3`, `api §6.5`, `` `operator.md` §9.2 ``, `runtime.md "Time"`,
 *   `runtime.md, Durability`;
 * - unqualified: `§5.6`, `(§8.6, §9.2)`, ranges `§14-§15` and `§1.3-1.7` (both ends checked);
 * - the contract's section names, `interface "FusedR bands"`: the contract is not in the
 *   repository, so each name must be a row `| "name" |` of api.md's table of restatements.
 *
 * An unqualified `§x.y` means the design document the file itself cites nearest before it (the
 * same line first, then earlier lines); a file whose first reference is unqualified means the
 * first document it names later; a file that names none takes its folder's document
 * (`FOLDER_DEFAULTS`). Inside docs/design/<doc>.md an unqualified reference means the document
 * named earlier on the same line, else <doc>.md itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';

export const DESIGN_DOCS = ['analytics', 'api', 'operator', 'runtime'] as const;
export type DesignDoc = (typeof DESIGN_DOCS)[number];

/** one reference: where it is written and what it names (a section number or a heading name) */
export interface DesignReference {
  file: string;
  line: number;
  doc: DesignDoc;
  section: string | undefined;
  name: string | undefined;
  /** a section name of the contract (`interface "X"`), looked up in api.md's table */
  contract?: string;
}

/** Folder prefixes (relative to the repository root) and the document an unqualified § means there. */
export const FOLDER_DEFAULTS: ReadonlyArray<readonly [string, DesignDoc]> = [
  ['operator/', 'operator'],
  ['hack/', 'operator'],
  ['crds/', 'operator'],
  ['manifests/', 'operator'],
  ['test/integration/operator/', 'operator'],
  ['dashboard/', 'api'],
  ['api-server/src/http/', 'api'],
  ['api-server/src/', 'analytics'],
  ['docs/', 'analytics'],
  ['test/', 'analytics'],
  ['tools/', 'analytics'],
  ['bench/', 'analytics'],
];

const DOC = '(analytics|api|operator|runtime)';
const SECTION = '(\\d+(?:\\.\\d+)*)';
/** qualified or bare §, with an optional range end */
const TOKEN = new RegExp(`(?:\\b${DOC}(?:\\.md)?\`?,?\\s?)?§\\s?${SECTION}(?:\\s?[-–]\\s?§?${SECTION})?`, 'g');
/** `runtime.md "Time"`, `runtime.md, "Durability"`, `runtime.md, Configuration` */
const NAMED = new RegExp(`\\b${DOC}\\.md\`?(?:,\\s*|\\s+)(?:"([^"]+)"|([A-Z][A-Za-z]+))`, 'g');
/** `interface "FusedR bands"`, `interface, "Action"` */
const CONTRACT = /\binterface,?\s+"([^"]+)"/g;
/** a mention of a document without a section, which sets the file's current document */
const MENTION = new RegExp(`\\b${DOC}\\.md\\b`, 'g');

function isDesignDoc(word: string | undefined): word is DesignDoc {
  return word !== undefined && (DESIGN_DOCS as readonly string[]).includes(word);
}

function folderDefault(file: string): DesignDoc | undefined {
  for (const [prefix, doc] of FOLDER_DEFAULTS) if (file.startsWith(prefix)) return doc;
  return undefined;
}

function ownDesignDoc(file: string): DesignDoc | undefined {
  const m = /^docs\/design\/(\w+)\.md$/.exec(file);
  return m !== null && isDesignDoc(m[1]) ? m[1] : undefined;
}

/** The references of one file's text; `file` is its path relative to the repository root. */
export function referencesIn(file: string, text: string): DesignReference[] {
  const lines = text.split('\n');
  const own = ownDesignDoc(file);
  let firstNamed: DesignDoc | undefined;
  for (const l of lines) {
    const m = new RegExp(MENTION.source).exec(l) ?? new RegExp(TOKEN.source).exec(l);
    if (m !== null && isDesignDoc(m[1])) { firstNamed = m[1]; break; }
  }
  let current: DesignDoc | undefined = own ?? firstNamed ?? folderDefault(file);
  const out: DesignReference[] = [];
  lines.forEach((text, i) => {
    const events: Array<{ at: number; doc: DesignDoc | undefined; sections: string[]; name?: string }> = [];
    for (const m of text.matchAll(TOKEN)) {
      const sections = [m[2], m[3]].filter((s): s is string => s !== undefined);
      events.push({ at: m.index, doc: isDesignDoc(m[1]) ? m[1] : undefined, sections });
    }
    for (const m of text.matchAll(NAMED)) {
      const name = m[2] ?? m[3];
      if (isDesignDoc(m[1]) && name !== undefined) events.push({ at: m.index, doc: m[1], sections: [], name });
    }
    for (const m of text.matchAll(CONTRACT)) {
      if (m[1] !== undefined) out.push({ file, line: i + 1, doc: 'api', section: undefined, name: undefined, contract: m[1] });
    }
    for (const m of text.matchAll(MENTION)) {
      if (isDesignDoc(m[1])) events.push({ at: m.index, doc: m[1], sections: [] });
    }
    events.sort((a, b) => a.at - b.at);
    let lineDoc: DesignDoc | undefined;
    for (const e of events) {
      if (e.doc !== undefined && own === undefined) current = e.doc;
      const doc = e.doc ?? (own === undefined ? current : (lineDoc ?? own));
      if (e.doc !== undefined) lineDoc = e.doc;
      if (doc === undefined) continue;
      for (const section of e.sections) out.push({ file, line: i + 1, doc, section, name: undefined });
      if (e.name !== undefined) out.push({ file, line: i + 1, doc, section: undefined, name: e.name });
    }
  });
  return out;
}

/** The section numbers and the heading texts of one design document. */
export interface DocHeadings {
  sections: Set<string>;
  titles: string[];
  /** first cells `| "name" |` of table rows: the contract's section names restated in the document */
  contractNames: Set<string>;
}

export function headingsOf(markdown: string): DocHeadings {
  const sections = new Set<string>();
  const titles: string[] = [];
  const contractNames = new Set<string>();
  for (const line of markdown.split('\n')) {
    const row = /^\| "([^"]+)" \|/.exec(line);
    if (row?.[1] !== undefined) contractNames.add(row[1]);
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h === null || h[1] === undefined) continue;
    titles.push(h[1]);
    const n = /^§?(\d+(?:\.\d+)*)\.?(?:\s|$)/.exec(h[1]);
    if (n?.[1] !== undefined) sections.add(n[1]);
  }
  return { sections, titles, contractNames };
}

/** Why a reference does not resolve, or undefined when it does. */
export function unresolved(ref: DesignReference, headings: DocHeadings | undefined): string | undefined {
  const where = `${ref.file}:${ref.line}`;
  if (headings === undefined) return `${where}: docs/design/${ref.doc}.md does not exist`;
  if (ref.section !== undefined && !headings.sections.has(ref.section)) {
    return `${where}: ${ref.doc}.md §${ref.section} has no heading in docs/design/${ref.doc}.md`;
  }
  if (ref.contract !== undefined && !headings.contractNames.has(ref.contract)) {
    return `${where}: the contract's section "${ref.contract}" is not in the table of docs/design/${ref.doc}.md §10`;
  }
  if (ref.name !== undefined) {
    const wanted = ref.name.toLowerCase();
    if (!headings.titles.some((t) => t.toLowerCase().includes(wanted))) {
      return `${where}: ${ref.doc}.md "${ref.name}" has no heading in docs/design/${ref.doc}.md`;
    }
  }
  return undefined;
}

/**
 * Relative links `[text](target)` of a Markdown file whose target file does not exist; `pending`
 * holds root-relative paths that count as present (files another branch adds).
 */
export function brokenLinks(file: string, text: string, root: string, pending: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      const path = resolve(root, dirname(file), decodeURIComponent(target.split('#')[0] ?? ''));
      if (!existsPath(path) && !pending.has(relative(root, path))) out.push(`${file}:${i + 1}: link to ${target} does not resolve`);
    }
  });
  return out;
}

function existsPath(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test-output', 'data', 'coverage']);

/** Files under `dirs` (relative to root) with one of the extensions, as root-relative paths. */
export function filesUnder(root: string, dirs: readonly string[], extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (SKIP_DIRS.has(entry.name)) continue;
      const path = join(abs, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (extensions.includes(extname(entry.name))) out.push(relative(root, path));
    }
  };
  for (const d of dirs) if (existsPath(join(root, d))) walk(join(root, d));
  return out.sort();
}

export function readText(root: string, file: string): string {
  return readFileSync(join(root, file), 'utf8');
}
