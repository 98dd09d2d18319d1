import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  MarkupContent,
  Range,
  SymbolInformation,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { fileURLToPath } from 'node:url';

/** How the formatter shows a file: its name, and one of its lines when the user may read it. */
export interface LocationView {
  /** The path as the model sees it (relative to the working directory when inside). */
  display(file: string): string;
  /** The text of a 1-based line, or undefined when it is not to be shown. */
  lineText(file: string, line: number): Promise<string | undefined>;
  /** Whether a location in this file may be listed at all (a denied file is left out). */
  listed(file: string): Promise<boolean>;
  /** Whether Read would be allowed on this file without asking. */
  readable(file: string): Promise<boolean>;
}

const SYMBOL_KINDS = [
  '',
  'File',
  'Module',
  'Namespace',
  'Package',
  'Class',
  'Method',
  'Property',
  'Field',
  'Constructor',
  'Enum',
  'Interface',
  'Function',
  'Variable',
  'Constant',
  'String',
  'Number',
  'Boolean',
  'Array',
  'Object',
  'Key',
  'Null',
  'EnumMember',
  'Struct',
  'Event',
  'Operator',
  'TypeParameter',
];

/** The name of an LSP symbol kind (`12` → `Function`). */
export function symbolKindName(kind: number): string {
  return SYMBOL_KINDS[kind] ?? `Kind${kind}`;
}

/** A local path for a `file:` URI, or undefined for any other scheme. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** One location of an answer: a file and a 0-based range start. */
export interface FoundLocation {
  file: string;
  line: number;
  character: number;
}

/** Every shape `definition`, `implementation` and `references` answer with, as a flat list. */
export function toLocations(answer: Location | Location[] | LocationLink[] | null | undefined): FoundLocation[] {
  if (!answer) return [];
  const list = (Array.isArray(answer) ? answer : [answer]) as (Location | LocationLink)[];
  const out: FoundLocation[] = [];
  for (const item of list) {
    const uri = 'targetUri' in item ? item.targetUri : item.uri;
    const range: Range = 'targetUri' in item ? (item.targetSelectionRange ?? item.targetRange) : item.range;
    const file = uriToPath(uri);
    if (file !== undefined) out.push({ file, line: range.start.line, character: range.start.character });
  }
  out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.character - b.character));
  return out.filter(
    (l, i) =>
      i === 0 || l.file !== out[i - 1]!.file || l.line !== out[i - 1]!.line || l.character !== out[i - 1]!.character,
  );
}

/** `path:line:col: text`, 1-based, the text trimmed, or `path:line:col` alone when it is not shown. */
export async function locationLine(view: LocationView, loc: FoundLocation): Promise<string> {
  const head = `${view.display(loc.file)}:${loc.line + 1}:${loc.character + 1}`;
  const text = await view.lineText(loc.file, loc.line + 1);
  if (text === undefined) return `${head} (text not shown: reading this file would need permission)`;
  const trimmed = text.trim();
  return trimmed === '' ? head : `${head}: ${trimmed.length > 200 ? `${trimmed.slice(0, 197)}...` : trimmed}`;
}

/** Lines for a list of locations, leaving out denied files; returns how many were left out too. */
export async function locationLines(
  view: LocationView,
  locations: readonly FoundLocation[],
): Promise<{ lines: string[]; hidden: number }> {
  const lines: string[] = [];
  let hidden = 0;
  for (const loc of locations) {
    if (!(await view.listed(loc.file))) {
      hidden++;
      continue;
    }
    lines.push(await locationLine(view, loc));
  }
  return { lines, hidden };
}

/** Hover contents as Markdown. */
export function hoverMarkdown(hover: Hover | null | undefined): string | undefined {
  if (!hover) return undefined;
  const parts = (Array.isArray(hover.contents) ? hover.contents : [hover.contents]) as (MarkedString | MarkupContent)[];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('kind' in part) return part.value;
      return `\`\`\`${part.language}\n${part.value}\n\`\`\``;
    })
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join('\n\n');
  return text === '' ? undefined : text;
}

/** A document's symbols as an indented outline: `Kind name (line N)`, children two spaces in. */
export function symbolOutline(symbols: readonly (DocumentSymbol | SymbolInformation)[] | null | undefined): string[] {
  if (!symbols || symbols.length === 0) return [];
  const lines: string[] = [];
  if ('location' in symbols[0]!) {
    const flat = [...(symbols as SymbolInformation[])].sort(
      (a, b) => a.location.range.start.line - b.location.range.start.line,
    );
    for (const s of flat) {
      const container = s.containerName ? ` in ${s.containerName}` : '';
      lines.push(`${symbolKindName(s.kind)} ${s.name}${container} (line ${s.location.range.start.line + 1})`);
    }
    return lines;
  }
  // Servers list symbols in any order (tsserver: by name); an outline reads top to bottom.
  const byPosition = (a: DocumentSymbol, b: DocumentSymbol) =>
    a.selectionRange.start.line - b.selectionRange.start.line ||
    a.selectionRange.start.character - b.selectionRange.start.character;
  const walk = (list: readonly DocumentSymbol[], depth: number) => {
    for (const s of [...list].sort(byPosition)) {
      const detail = s.detail ? ` ${s.detail}` : '';
      lines.push(
        `${'  '.repeat(depth)}${symbolKindName(s.kind)} ${s.name}${detail} (line ${s.selectionRange.start.line + 1})`,
      );
      if (s.children?.length) walk(s.children, depth + 1);
    }
  };
  walk(symbols as DocumentSymbol[], 0);
  return lines;
}

/** Workspace symbols: `Kind name — path:line:col: text`. */
export async function workspaceSymbolLines(
  view: LocationView,
  symbols: readonly (SymbolInformation | WorkspaceSymbol)[] | null | undefined,
): Promise<{ lines: string[]; hidden: number }> {
  const lines: string[] = [];
  let hidden = 0;
  for (const s of symbols ?? []) {
    const file = uriToPath(s.location.uri);
    if (file === undefined) continue;
    if (!(await view.listed(file))) {
      hidden++;
      continue;
    }
    const start = 'range' in s.location ? s.location.range.start : { line: 0, character: 0 };
    const container = s.containerName ? ` in ${s.containerName}` : '';
    lines.push(`${symbolKindName(s.kind)} ${s.name}${container} — ${await locationLine(view, { file, ...start })}`);
  }
  return { lines, hidden };
}

/** One call-hierarchy item: `Kind name — path:line:col: text`. */
export async function callItemLine(view: LocationView, item: CallHierarchyItem): Promise<string | undefined> {
  const file = uriToPath(item.uri);
  if (file === undefined || !(await view.listed(file))) return undefined;
  const detail = item.detail ? ` (${item.detail})` : '';
  return `${symbolKindName(item.kind)} ${item.name}${detail} — ${await locationLine(view, { file, ...item.selectionRange.start })}`;
}

/** Incoming or outgoing calls: each caller (or callee) and the lines of its call sites. */
export async function callLines(
  view: LocationView,
  calls: readonly (CallHierarchyIncomingCall | CallHierarchyOutgoingCall)[] | null | undefined,
): Promise<{ lines: string[]; hidden: number }> {
  const lines: string[] = [];
  let hidden = 0;
  for (const call of calls ?? []) {
    const item = 'from' in call ? call.from : call.to;
    const head = await callItemLine(view, item);
    if (head === undefined) {
      hidden++;
      continue;
    }
    // Incoming: the call sites are in the caller; outgoing: in the item asked about (shown by the caller).
    const sites = 'from' in call ? call.fromRanges : [];
    const siteFile = uriToPath(item.uri)!;
    const siteLines = await Promise.all(sites.map((r) => locationLine(view, { file: siteFile, ...r.start })));
    lines.push([head, ...siteLines.map((s) => `  called at ${s}`)].join('\n'));
  }
  return { lines, hidden };
}
