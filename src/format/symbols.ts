/** Markdown renderings of symbol lists and packages: Fathom-like tables, counts stated, nothing silently cut. */
import type { IndexSymbol, SymbolSearchResponse } from '../../schemas/symbols.js';
import type { PackageSymbolsResponse, PackagesResponse } from '../../schemas/packages.js';
import { displayKind } from '../kinds.js';
import { markdownTable } from './markdown.js';
import { COUNT_CAP } from '../../schemas/symbols.js';

const number = new Intl.NumberFormat('en-US');

interface ListEnvelope {
  results: unknown[];
  offset: number;
  totalMatches: number;
  truncated: boolean;
  forwardDeclarations: number;
  countsCapped?: boolean;
  partial?: boolean;
  reason?: string;
}

/** `showing 50 of 1,204` (with the offset when paging), forward declarations and partial state. */
function summary(list: ListEnvelope, noun: string, forwardIncluded: boolean): string[] {
  const lines: string[] = [];
  const shown = list.results.length;
  const range = list.offset > 0 ? `${number.format(list.offset + 1)}-${number.format(list.offset + shown)}` : number.format(shown);
  // A capped count is a lower bound: `1,000+`.
  const plus = list.countsCapped ? '+' : '';
  lines.push(list.truncated || list.offset > 0
    ? `Showing ${range} of ${number.format(list.totalMatches)}${plus} ${noun}${list.truncated ? ' (truncated: raise offset for more)' : ''}.`
    : `${number.format(list.totalMatches)}${plus} ${noun}.`);
  if (list.countsCapped) lines.push(`Counting stopped at ${number.format(COUNT_CAP)} matches: the counts are lower bounds.`);
  if (list.forwardDeclarations > 0) {
    lines.push(forwardIncluded
      ? `${number.format(list.forwardDeclarations)} forward declaration${list.forwardDeclarations === 1 ? '' : 's'} listed last.`
      : `${number.format(list.forwardDeclarations)} forward declaration${list.forwardDeclarations === 1 ? '' : 's'} skipped (include_forward_declarations=true lists them).`);
  }
  if (list.partial) lines.push(`**Partial:** ${list.reason ?? 'the index is still building'}.`);
  return lines;
}

function symbolRows(symbols: IndexSymbol[]): string[][] {
  return symbols.map((s) => [
    s.qualifiedName || s.name,
    `${displayKind(s.kind)}${s.forwardDeclaration ? ' (forward)' : !s.definition ? ' (declaration)' : ''}`,
    s.file,
    String(s.line),
  ]);
}

export function symbolSearchMarkdown(response: SymbolSearchResponse): string {
  const lines = [`# Symbols matching \`${response.query}\``, '', ...summary(response, 'matches', response.results.some((s) => s.forwardDeclaration))];
  if (response.results.length > 0) lines.push('', markdownTable(['Name', 'Kind', 'File', 'Line'], symbolRows(response.results)));
  return lines.join('\n') + '\n';
}

export function packageSymbolsMarkdown(response: PackageSymbolsResponse): string {
  const lines = [`# Symbols of package \`${response.package}\``, '', ...summary(response, 'symbols', response.results.some((s) => s.forwardDeclaration))];
  if (response.results.length > 0) lines.push('', markdownTable(['Name', 'Kind', 'File', 'Line'], symbolRows(response.results)));
  return lines.join('\n') + '\n';
}

export function packagesMarkdown(response: PackagesResponse): string {
  const lines = ['# Packages', '', ...summary(response, 'packages', false)];
  if (response.results.length > 0) {
    lines.push('', markdownTable(['Name', 'Path', 'Language', 'Symbols', 'Manifest'], response.results.map((p) => [
      p.name + (p.external ? ' (external)' : ''),
      p.path,
      p.language ?? '',
      number.format(p.symbols),
      p.manifest ?? '(directory)',
    ])));
  }
  return lines.join('\n') + '\n';
}
