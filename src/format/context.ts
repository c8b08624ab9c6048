/** Markdown for one symbol whole: its code, doc and signature first, then each part with its count. */
import type { CallNode } from '../../schemas/calls.js';
import type { ContextResponse } from '../../schemas/context.js';
import type { ImpactResult } from '../../schemas/impact.js';
import { displayKind, type NormalizedKind } from '../kinds.js';
import { fenced, fenceLanguage, markdownTable } from './markdown.js';

function nodeName(node: CallNode): string {
  return 'id' in node ? node.qualifiedName || node.name : node.name;
}

function count(shown: number, total: number, noun: string): string {
  return shown < total ? `${noun} (${shown} of ${total})` : `${noun} (${total})`;
}

function site(result: { sites: ImpactResult['sites'] } | { calls: ImpactResult['sites'] }): string {
  const sites = 'sites' in result ? result.sites : result.calls;
  const first = sites[0];
  if (!first) return '';
  return `${first.file}:${first.line}${first.text ? ` \`${first.text.length > 70 ? `${first.text.slice(0, 69)}…` : first.text}\`` : ''}${sites.length > 1 ? ` +${sites.length - 1}` : ''}`;
}

function relatedTable(rows: ImpactResult[]): string {
  return markdownTable(['Name', 'Kind', 'File:Line', 'Dist', 'At', 'Id'], rows.map((r) => [
    r.test ? `${r.test} (test)` : nodeName(r.symbol),
    'id' in r.symbol ? displayKind(r.symbol.kind) : r.symbol.kind,
    r.symbol.file ? `${r.symbol.file}:${r.symbol.line ?? ''}` : '',
    String(r.distance),
    site(r),
    'id' in r.symbol ? r.symbol.id : '',
  ]));
}

export function contextMarkdown(answer: ContextResponse): string {
  const symbol = answer.symbol;
  const lines = [`# \`${symbol.qualifiedName || symbol.name}\` (${displayKind(symbol.kind as NormalizedKind)}, ${symbol.file}:${symbol.line}, id \`${symbol.id}\`)`, ''];
  if (symbol.signature) lines.push(`\`${symbol.signature}\``, '');
  if (answer.doc) lines.push(answer.doc.split('\n').slice(0, 6).join('\n'), '');
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`, '');
  lines.push(`Parts: ${answer.parts.map((p) => `${p.part} ${p.shown}/${p.total}${p.precision === 'syntactic' && p.part !== 'places' && p.part !== 'members' ? ' (syntactic)' : ''}`).join(', ')}.`);

  for (const place of answer.places) {
    const where = place.snippet ? `${place.file}:${place.snippet.startLine}-${place.snippet.endLine}` : `${place.file}:${place.line}`;
    lines.push('', `## ${place.context === 'definition' ? 'Definition' : 'Declaration'} ${where}`);
    if (place.snippet) {
      lines.push('', fenced(place.snippet.text, fenceLanguage(place.language)));
      if (place.snippet.omittedLines) lines.push(`(${place.snippet.omittedLines} more lines: find_declaration with include_body=true)`);
    } else if (place.snippetError) lines.push('', `Not read: ${place.snippetError}`);
  }
  if (answer.bases.length > 0) lines.push('', `## Bases`, '', answer.bases.map((b) => `${b.qualifiedName ?? b.name}${b.depth > 1 ? ` (depth ${b.depth})` : ''}${b.id ? ` \`${b.id}\`` : ''}`).join(', '));
  if (answer.members.length > 0) {
    lines.push('', `## ${count(answer.members.length, answer.membersTotal, 'Members')}`, '');
    lines.push(markdownTable(['Name', 'Kind', 'Line', 'Signature', 'Id'], answer.members.map((m) => [m.name, displayKind(m.kind), String(m.line), m.signature, m.id])));
  }
  if (answer.inheritorsTotal > 0) lines.push('', `## ${count(answer.inheritors.length, answer.inheritorsTotal, 'Inheritors')}`, '', relatedTable(answer.inheritors));
  if (answer.overridesTotal > 0) lines.push('', `## ${count(answer.overrides.length, answer.overridesTotal, 'Overrides and implementations')}`, '', relatedTable(answer.overrides));
  if (answer.callersTotal > 0) lines.push('', `## ${count(answer.callers.length, answer.callersTotal, 'Callers')}`, '', relatedTable(answer.callers));
  if (answer.calleesTotal > 0) {
    lines.push('', `## ${count(answer.callees.length, answer.calleesTotal, 'Callees')}`, '');
    lines.push(markdownTable(['Name', 'File:Line', 'At', 'Id'], answer.callees.map((c) => [nodeName(c.symbol), c.symbol.file ? `${c.symbol.file}:${c.symbol.line ?? ''}` : '', site(c), 'id' in c.symbol ? c.symbol.id : ''])));
  }
  if (answer.usagesTotal > 0) {
    lines.push('', `## ${count(answer.usages.length, answer.usagesTotal, 'Usages')}`, '');
    for (const u of answer.usages) lines.push(`- ${u.file}:${u.line} (${u.usageKind}${u.enclosingSymbol ? `, in ${u.enclosingSymbol.qualifiedName || u.enclosingSymbol.name}` : ''}) \`${u.text.length > 90 ? `${u.text.slice(0, 89)}…` : u.text}\``);
    if (answer.usagesTotal > answer.usages.length) lines.push(`- … find_usages for all ${answer.usagesTotal}`);
  }
  if (answer.testsTotal > 0) {
    lines.push('', `## ${count(answer.tests.length, answer.testsTotal, 'Tests reaching it')}`, '');
    for (const test of answer.tests) lines.push(`- ${test.name ? `\`${test.name}\`` : '(the file)'} — ${test.file}${test.line ? `:${test.line}` : ''}, distance ${test.distance}`);
  } else {
    lines.push('', 'No tests reach it (two calls deep).');
  }
  return lines.join('\n') + '\n';
}
