import type { ServerOutcome } from '../../schemas/common.js';
import { languageById, languageOfPath } from '../languages/index.js';

/** Markdown table cells cannot hold pipes or newlines. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').trim();
}

/**
 * The line saying which page of a list the answer shows: the count alone when it shows all, `none shown` when
 * max_tokens cut every row, else the range; `hint` is what a truncated list adds.
 */
export function pageLine(answer: { results: unknown[]; offset: number; totalMatches: number; truncated: boolean }, noun: string, hint = 'truncated: raise offset for more'): string {
  if (!answer.truncated && answer.offset === 0) return `${answer.totalMatches} ${noun}.`;
  const more = answer.truncated ? ` (${hint})` : '';
  if (answer.results.length === 0) return `${answer.totalMatches} ${noun}, none shown${more}.`;
  return `Showing ${answer.offset + 1}-${answer.offset + answer.results.length} of ${answer.totalMatches} ${noun}${more}.`;
}

export function markdownTable(header: string[], rows: string[][]): string {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  return lines.join('\n');
}

/** A fence longer than any backtick run inside the code, so code never closes it early. */
export function fenced(code: string, language = ''): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}`;
}

/** The code fence's info string for a language id (`fence` in src/languages/<id>/); bare for an unknown one. */
export function fenceLanguage(language: string): string {
  return languageById(language)?.fence ?? '';
}

/** The code fence's info string for a file, by the language its extension belongs to; bare for none. */
export function fenceOfPath(file: string): string {
  return languageOfPath(file)?.fence ?? '';
}

/** The line every answer that asked a language server shows: which, what it asked, how it went and why. */
export function serverLine(server: ServerOutcome | undefined): string[] {
  if (!server) return [];
  return [`Server (${server.language}): ${server.request ?? 'no request'}, ${server.state}${server.reason ? ` — ${server.reason}` : ''}.`];
}
