/** Markdown rendering of /statements: one row per hit (file:line, depth, path, the code on one line). */
import type { StatementsResponse } from '../../schemas/statements.js';
import { markdownTable } from './markdown.js';

const number = new Intl.NumberFormat('en-US');
/** Code shown per row: the JSON answer carries the full (cut) code. */
const ROW_CODE = 160;
/** Files with syntax errors named in the markdown. */
const INCOMPLETE_NAMED = 5;

export function statementsMarkdown(response: StatementsResponse): string {
  const lines = [`# Statements matching ${response.type} \`${response.query}\``, ''];
  const shown = response.results.length;
  const plus = response.countsCapped ? '+' : '';
  const range = response.offset > 0 ? `${number.format(response.offset + 1)}-${number.format(response.offset + shown)}` : number.format(shown);
  lines.push(response.truncated || response.offset > 0
    ? `Showing ${range} of ${number.format(response.totalMatches)}${plus} statements${response.truncated ? ' (truncated: raise offset for more)' : ''}.`
    : `${number.format(response.totalMatches)} statements.`);
  if (response.countsCapped) lines.push('Counting stopped before every file was searched: the total is a lower bound.');
  lines.push(`${number.format(response.filesSearched)} files searched, ${number.format(response.filesParsed)} parsed.`);
  if (response.symbols?.length) lines.push(`Inside: ${response.symbols.map((s) => `${s.qualifiedName} (${s.kind}, ${s.file}:${s.line}, id ${s.id})`).join('; ')}.`);
  if (response.incompleteFiles?.length) {
    // The first few: a list of paths max_tokens cannot shorten (the JSON's incompleteFiles has them all).
    const named = response.incompleteFiles.slice(0, INCOMPLETE_NAMED);
    const more = response.incompleteFiles.length - named.length;
    lines.push(`Syntax errors in ${named.join(', ')}${more > 0 ? ` and ${more} more (incompleteFiles)` : ''}: statements there may be missing.`);
  }
  if (response.filesSkipped) {
    const listed = (response.skippedFiles ?? []).map((skip) => `${skip.file} (${skip.reason.replaceAll('_', ' ')})`).join(', ');
    const more = response.filesSkipped - (response.skippedFiles?.length ?? 0);
    lines.push(`${number.format(response.filesSkipped)} file${response.filesSkipped === 1 ? '' : 's'} not searched: ${listed}${more > 0 ? `, and ${number.format(more)} more` : ''}.`);
  }
  if (response.partial) lines.push(`**Partial:** ${response.reason ?? 'the index is still building'}.`);
  if (shown > 0) {
    const rows = response.results.map((r) => {
      const oneLine = r.code.replace(/\s+/g, ' ').trim();
      const code = oneLine.length > ROW_CODE ? `${oneLine.slice(0, ROW_CODE)}…` : oneLine;
      return [`${r.file}:${r.line}`, String(r.depth), r.path, `\`${code.replace(/`/g, "'")}\``];
    });
    lines.push('', markdownTable(['Location', 'Depth', 'Path', 'Code'], rows));
  }
  return lines.join('\n') + '\n';
}
