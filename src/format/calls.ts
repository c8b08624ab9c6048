/** Markdown for callers/callees (a table per depth with the call sites), signatures (fenced heads, hover) and docs. */
import type { CallNode, CallsResponse, DocResponse, SignatureResponse } from '../../schemas/calls.js';
import type { IndexSymbol } from '../../schemas/symbols.js';
import { displayKind } from '../kinds.js';
import { fenced, fenceLanguage, markdownTable, pageLine, serverLine } from './markdown.js';

function heading(symbol: IndexSymbol): string {
  return `\`${symbol.qualifiedName || symbol.name}\` (${displayKind(symbol.kind)}, ${symbol.file}:${symbol.line}, id \`${symbol.id}\`)`;
}

function firstDocLine(doc: string | null | undefined): string {
  const line = doc ? doc.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '' : '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function nodeName(node: CallNode): string {
  return 'id' in node ? node.qualifiedName || node.name : node.name;
}

function nodePlace(node: CallNode): string {
  if ('id' in node) return `${node.file}:${node.line}`;
  if (node.file === null) return node.external ? '(not in the index)' : '';
  return `${node.file}:${node.line ?? ''}${node.external ? ' (external)' : ''}`;
}

export function callsMarkdown(answer: CallsResponse): string {
  const noun = answer.direction === 'incoming' ? 'callers' : 'callees';
  const lines = [`# ${answer.direction === 'incoming' ? 'Callers' : 'Callees'} of ${heading(answer.symbol)}`, ''];
  if (answer.symbol.signature) lines.push(`\`${answer.symbol.signature}\``, '');
  lines.push(`Depth ${answer.depth}. ${pageLine(answer, noun)} Precision: ${answer.precision} (${answer.source === 'lsp' ? 'the language server\'s call hierarchy' : 'call expressions read from the source'}).`);
  lines.push(...serverLine(answer.server));
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  else if (answer.reason) lines.push(`Note: ${answer.reason}.`);
  if (answer.omitted > 0) lines.push(`${answer.omitted} more left out (by the node cap${'budget' in answer ? ' and max_tokens' : ''}).`);
  if (answer.totalMatches === 0) {
    lines.push('', `No ${noun} found.`);
    return lines.join('\n') + '\n';
  }
  const short = answer.results.length <= 10;
  lines.push('', markdownTable(['Name', 'Kind', 'File:Line', 'Depth', 'Via', 'Calls at', 'Id', ...(short ? ['Signature'] : [])], answer.results.map((r) => {
    const sites = r.calls.slice(0, 3).map((c) => `${c.file === ('id' in r.symbol ? r.symbol.file : '') ? '' : `${c.file}:`}${c.line}${c.text ? ` \`${c.text.length > 80 ? `${c.text.slice(0, 79)}…` : c.text}\`` : ''}`);
    if (r.calls.length > 3) sites.push(`+${r.calls.length - 3} more`);
    return [
      nodeName(r.symbol),
      'id' in r.symbol ? displayKind(r.symbol.kind) : r.symbol.kind,
      nodePlace(r.symbol),
      String(r.depth),
      r.via?.name ?? '',
      sites.join('; '),
      'id' in r.symbol ? r.symbol.id : '',
      ...(short ? ['id' in r.symbol ? r.symbol.signature : (r.symbol.detail ?? '')] : []),
    ];
  })));
  return lines.join('\n') + '\n';
}

export function signatureMarkdown(answer: SignatureResponse): string {
  const lines = [`# Signature of \`${answer.symbol}\``, '', pageLine(answer, answer.totalMatches === 1 ? 'symbol' : 'symbols (overloads and namesakes)')];
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  for (const result of answer.results) {
    lines.push('', `## ${heading(result)}`);
    for (const head of result.heads) {
      lines.push('', `${head.file}:${head.startLine}${head.endLine > head.startLine ? `-${head.endLine}` : ''} (${head.definition ? 'definition' : 'declaration'}${head.truncated ? ', cut' : ''}):`, fenced(head.text, fenceLanguage(result.language)));
    }
    const doc = firstDocLine(result.doc);
    if (doc) lines.push('', `Doc: ${doc}`);
    if (result.hover) lines.push('', 'Hover:', '', result.hover.format === 'markdown' ? result.hover.text : fenced(result.hover.text));
    else if (result.hoverNote) lines.push('', `No hover: ${result.hoverNote}.`);
  }
  return lines.join('\n') + '\n';
}

export function docMarkdown(answer: DocResponse): string {
  const lines = [`# Doc of \`${answer.symbol}\``, '', pageLine(answer, answer.totalMatches === 1 ? 'symbol' : 'symbols')];
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  for (const result of answer.results) {
    lines.push('', `## ${heading(result)}`, '');
    if (result.signature) lines.push(`\`${result.signature}\``, '');
    if (result.doc === null) lines.push('No doc comment.');
    else {
      if (result.docFile) lines.push(`(documented at ${result.docFile}:${result.docLine})`, '');
      lines.push(result.doc);
    }
  }
  return lines.join('\n') + '\n';
}
