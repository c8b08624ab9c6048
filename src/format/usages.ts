/** Markdown for usages (a file:line table: enclosing symbol, usage kind, the line) and resolve (the name, the symbol, its code). */
import type { ResolveResponse, UsagesResponse } from '../../schemas/usages.js';
import { displayKind } from '../kinds.js';
import { fenced, fenceLanguage, fenceOfPath, markdownTable } from './markdown.js';

const number = new Intl.NumberFormat('en-US');

export function usagesMarkdown(answer: UsagesResponse): string {
  const { symbol } = answer;
  const lines = [`# Usages of \`${symbol.qualifiedName || symbol.name}\` (${displayKind(symbol.kind)}, ${symbol.file}:${symbol.line}, id ${symbol.id})`, ''];
  const shown = answer.results.length;
  const range = answer.offset > 0 ? `${number.format(answer.offset + 1)}-${number.format(answer.offset + shown)}` : number.format(shown);
  lines.push(answer.truncated || answer.offset > 0
    ? `Showing ${range} of ${number.format(answer.totalMatches)} usages${answer.truncated ? ' (truncated: raise offset for more)' : ''}.`
    : `${number.format(answer.totalMatches)} usage${answer.totalMatches === 1 ? '' : 's'}.`);
  lines.push(answer.precision === 'semantic'
    ? 'Precision: semantic (the language server\'s references).'
    : `Precision: syntactic (${answer.reason ?? 'identifier matches'}).`);
  if (answer.partial) lines.push(`**Partial:** ${answer.reason ?? 'a server or the index is still working'}.`);
  if (answer.droppedIgnored > 0) lines.push(`${number.format(answer.droppedIgnored)} reference${answer.droppedIgnored === 1 ? '' : 's'} in ignored files (dependencies, build output) left out.`);
  if (shown > 0) {
    const withContext = answer.results.some((u) => u.context);
    if (!withContext) {
      lines.push('', markdownTable(['File:Line', 'Kind', 'In', 'Code'], answer.results.map((u) => [
        `${u.file}:${u.line}:${u.column}`,
        u.usageKind,
        u.enclosingSymbol ? u.enclosingSymbol.qualifiedName || u.enclosingSymbol.name : '',
        u.text,
      ])));
    } else {
      const fence = fenceLanguage(symbol.language);
      for (const u of answer.results) {
        lines.push('', `**${u.file}:${u.line}:${u.column}** ${u.usageKind}${u.enclosingSymbol ? ` in \`${u.enclosingSymbol.qualifiedName || u.enclosingSymbol.name}\`` : ''}`);
        if (u.context) lines.push(fenced(u.context.text, fence));
      }
    }
  }
  return lines.join('\n') + '\n';
}

export function resolveMarkdown(answer: ResolveResponse): string {
  const { identifier, symbol } = answer;
  const lines = [`# \`${identifier.name}\` at ${identifier.line}:${identifier.column}`, ''];
  lines.push(answer.source === 'lsp' ? 'Resolved by the language server.' : `Resolved by name from the index${answer.candidates && answer.candidates > 1 ? ` (best of ${answer.candidates} symbols with this name)` : ''}.`);
  if (answer.reason) lines.push(`_${answer.reason}_`);
  if (symbol) {
    lines.push('', `**${symbol.qualifiedName || symbol.name}** (${displayKind(symbol.kind)}) — ${symbol.file}:${symbol.line} — id ${symbol.id}`);
    if (symbol.signature) lines.push('', `\`${symbol.signature}\``);
    const doc = symbol.doc?.split('\n').find((line) => line.trim() !== '');
    if (doc) lines.push('', doc.trim());
  } else if (answer.target) {
    const t = answer.target;
    lines.push('', `Target: ${t.file}:${t.line}:${t.column}${t.external ? ' (outside the workspace)' : ' (not an indexed symbol: a local, a parameter, or a name the index does not hold)'}`);
    if (t.text) lines.push('', fenced(t.text, fenceOfPath(t.file)));
  }
  for (const place of answer.results) {
    lines.push('', `${place.context === 'definition' ? 'Definition' : 'Declaration'}: ${place.file}:${place.line} (lines ${place.snippet.startLine}-${place.snippet.endLine})`);
    lines.push(fenced(place.snippet.text, fenceLanguage(place.language)));
  }
  return lines.join('\n') + '\n';
}
