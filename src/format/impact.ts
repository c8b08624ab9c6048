/** Markdown for impact and changes: what is reached, nearest first, then the files and the tests to run. */
import type { CallNode } from '../../schemas/calls.js';
import type { ChangesResponse, ImpactFile, ImpactPart, ImpactResponse, ImpactResult, ImpactTest } from '../../schemas/impact.js';
import { displayKind, type NormalizedKind } from '../kinds.js';
import { markdownTable, pageLine } from './markdown.js';

function nodeName(node: CallNode): string {
  return 'id' in node ? node.qualifiedName || node.name : node.name;
}

function nodeKind(node: CallNode): string {
  return 'id' in node ? displayKind(node.kind) : node.kind;
}

function nodePlace(node: CallNode): string {
  if (node.file === null) return '';
  return `${node.file}:${node.line ?? ''}`;
}

function partsLine(parts: ImpactPart[], cut: boolean): string {
  if (parts.length === 0) return cut ? '' : 'Built on: nothing answered.';
  return `Built on: ${parts.map((part) => `${part.operation} (${part.relation}, ${part.precision}, ${part.found})`).join('; ')}.`;
}

function sitesCell(result: ImpactResult): string {
  const own = result.symbol.file;
  const sites = result.sites.slice(0, 2).map((site) => `${site.file === own ? '' : `${site.file}:`}${site.line}${site.text ? ` \`${site.text.length > 70 ? `${site.text.slice(0, 69)}…` : site.text}\`` : ''}`);
  if (result.sitesTotal > 2) sites.push(`+${result.sitesTotal - 2} more`);
  return sites.join('; ');
}

function resultRows(results: Array<ImpactResult & { from?: Array<{ name: string }> }>, withFrom: boolean): string[][] {
  return results.map((result) => [
    String(result.distance),
    result.relation,
    result.test ? `${result.test} (test, ${nodeName(result.symbol)})` : nodeName(result.symbol),
    nodeKind(result.symbol),
    nodePlace(result.symbol),
    result.via?.name ?? '',
    ...(withFrom ? [(result.from ?? []).map((f) => f.name).join(', ')] : []),
    sitesCell(result),
    result.precision === 'syntactic' ? 'syntactic' : '',
    'id' in result.symbol ? result.symbol.id : '',
  ]);
}

function filesAndTests(lines: string[], files: ImpactFile[], filesTotal: number, tests: ImpactTest[], testsTotal: number): void {
  if (tests.length > 0) {
    lines.push('', `## Tests (${testsTotal})`, '');
    for (const test of tests.slice(0, 50)) lines.push(`- ${test.name ? `\`${test.name}\`` : '(the file)'} — ${test.file}${test.line ? `:${test.line}` : ''}, distance ${test.distance}${test.id ? `, id \`${test.id}\`` : ''}`);
    if (testsTotal > 50) lines.push(`- … ${testsTotal - 50} more in the JSON answer`);
  } else if (testsTotal === 0) {
    lines.push('', 'No tests reached.');
  }
  if (files.length > 0) {
    lines.push('', `## Files (${filesTotal})`, '');
    lines.push(files.slice(0, 40).map((file) => `${file.file} (${file.distance}${file.test ? ', test' : ''})`).join('; '));
    if (filesTotal > 40) lines.push(`… ${filesTotal - 40} more in the JSON answer.`);
  }
}

function statusLines(answer: { precision: string; parts: ImpactPart[]; partial?: boolean; reason?: string; omitted: number }): string[] {
  // An answer max_tokens cut may show none of its parts (its `budget` says so).
  const lines = [`Precision: ${answer.precision}. ${partsLine(answer.parts, 'budget' in answer)}`.trimEnd()];
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  else if (answer.reason) lines.push(`Note: ${answer.reason}.`);
  for (const part of answer.parts) if (part.reason && part.precision === 'syntactic') lines.push(`- ${part.operation}: ${part.reason}`);
  return lines;
}

const HEADER = ['Dist', 'Relation', 'Name', 'Kind', 'File:Line', 'Via', 'At', 'Precision', 'Id'];

export function impactMarkdown(answer: ImpactResponse): string {
  const symbol = answer.symbol;
  const lines = [`# Impact of \`${symbol.qualifiedName || symbol.name}\` (${displayKind(symbol.kind as NormalizedKind)}, ${symbol.file}:${symbol.line}, id \`${symbol.id}\`)`, ''];
  lines.push(`Depth ${answer.depth}. ${pageLine(answer, 'symbols reached', 'raise offset for more')}`);
  lines.push(...statusLines(answer));
  // Every row cut by max_tokens: the page line says how many there are.
  if (answer.totalMatches === 0) lines.push('', 'Nothing depends on it in the workspace.');
  else lines.push('', markdownTable(HEADER, resultRows(answer.results, false)));
  filesAndTests(lines, answer.files, answer.filesTotal, answer.tests, answer.testsTotal);
  return lines.join('\n') + '\n';
}

export function changesMarkdown(answer: ChangesResponse): string {
  const lines = [`# Changes${answer.base ? ` against \`${answer.base}\`` : ''}`, ''];
  const files = answer.changedFiles;
  lines.push(`${files.length} file${files.length === 1 ? '' : 's'} changed, ${answer.changedTotal} symbol${answer.changedTotal === 1 ? '' : 's'} changed. Depth ${answer.depth}.`);
  for (const file of files) {
    lines.push(`- ${file.file} (${file.status}${file.oldFile ? ` from ${file.oldFile}` : ''}, +${file.linesAdded} -${file.linesRemoved}, ${file.symbols} symbols${file.indexed ? '' : ', not in the index'})${file.note ? `: ${file.note}` : ''}`);
  }
  if (answer.changed.length > 0) {
    lines.push('', '## Changed symbols', '');
    lines.push(markdownTable(['Change', 'Name', 'Kind', 'File:Line', 'Lines', 'Id'], answer.changed.map((c) => [
      c.change, c.qualifiedName || c.name, c.kind, `${c.file}:${c.line}`, String(c.linesChanged), c.id ?? '',
    ])));
    if (answer.changedTotal > answer.changed.length) lines.push(`… ${answer.changedTotal - answer.changed.length} more in the JSON answer.`);
  }
  lines.push('', '## Impact', '', pageLine(answer, 'symbols reached', 'raise offset for more'));
  lines.push(...statusLines(answer));
  if (answer.results.length > 0) lines.push('', markdownTable([...HEADER.slice(0, 6), 'From', ...HEADER.slice(6)], resultRows(answer.results, true)));
  filesAndTests(lines, answer.files, answer.filesTotal, answer.tests, answer.testsTotal);
  return lines.join('\n') + '\n';
}
