/** Markdown for the hierarchy operations: inheritors and implementations as tables with source, hierarchy as an indented tree. */
import type { HierarchyNode, HierarchyResponse, ImplementationsResponse, InheritorsResponse } from '../../schemas/hierarchy.js';
import type { IndexSymbol } from '../../schemas/symbols.js';
import { displayKind } from '../kinds.js';
import { markdownTable, pageLine, serverLine } from './markdown.js';

function heading(symbol: IndexSymbol): string {
  return `\`${symbol.qualifiedName || symbol.name}\` (${displayKind(symbol.kind)}, ${symbol.file}:${symbol.line}, id \`${symbol.id}\`)`;
}

function firstDocLine(doc: string | null | undefined): string {
  return doc ? doc.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '' : '';
}

export function inheritorsMarkdown(answer: InheritorsResponse): string {
  const lines = [`# Inheritors of ${heading(answer.symbol)}`, '', `Depth ${answer.depth}. ${pageLine(answer, 'inheritors')}`];
  lines.push(...serverLine(answer.server));
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  if (answer.results.some((r) => r.confidence === 'name')) lines.push('Confidence `name`: the written base has this name but another type has it too, and nothing confirmed which one is meant.');
  if (answer.results.length > 0) {
    lines.push('', markdownTable(['Name', 'Kind', 'File:Line', 'Depth', 'Via', 'Source', 'Confidence', 'Id'], answer.results.map((r) => [
      r.qualifiedName || r.name,
      displayKind(r.kind),
      `${r.file}:${r.line}`,
      String(r.depth),
      r.via?.name ?? '',
      r.source,
      r.confidence ?? '',
      r.id,
    ])));
  }
  return lines.join('\n') + '\n';
}

export function implementationsMarkdown(answer: ImplementationsResponse): string {
  const lines = [`# Implementations of ${heading(answer.symbol)}`, '', pageLine(answer, 'implementations and overrides')];
  lines.push(...serverLine(answer.server));
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  if (answer.results.length > 0) {
    const short = answer.results.length <= 10;
    lines.push('', markdownTable(['Name', 'File:Line', 'Signature', 'Source', 'Depth', 'Id', ...(short ? ['Doc'] : [])], answer.results.map((r) => [
      r.qualifiedName || r.name,
      `${r.file}:${r.line}${r.definition ? '' : ' (declaration)'}`,
      r.signature,
      r.source + (r.confidence ? ' (name only)' : ''),
      String(r.depth),
      r.id,
      ...(short ? [firstDocLine(r.doc)] : []),
    ])));
  }
  return lines.join('\n') + '\n';
}

export function hierarchyMarkdown(answer: HierarchyResponse): string {
  const lines = [`# Type hierarchy of ${heading(answer.symbol)}`, ''];
  if (answer.symbol.signature) lines.push(`\`${answer.symbol.signature}\``, '');
  const describe = (node: HierarchyNode): string => {
    const parts: string[] = [];
    if (node.external) {
      parts.push(`**${node.name}** (external${node.file ? `, ${String(node.file)}:${String(node.line)}` : ''})`);
    } else {
      parts.push(`**${String(node.qualifiedName ?? node.name)}** (${displayKind(String(node.kind) as never)}, ${String(node.file)}:${String(node.line)}, id \`${String(node.id)}\`)`);
    }
    if (node.written && node.written !== node.name && node.written !== node.qualifiedName) parts.push(`as \`${String(node.written)}\``);
    if (node.source && node.source !== 'index') parts.push(`[${String(node.source)}]`);
    if (node.confidence) parts.push('[name only]');
    if (node.cycle) parts.push('[cycle: not expanded]');
    return parts.join(' ');
  };
  const tree = (nodes: HierarchyNode[], key: 'supertypes' | 'subtypes', indent: string): void => {
    for (const node of nodes) {
      lines.push(`${indent}- ${describe(node)}`);
      tree(node[key] ?? [], key, `${indent}  `);
    }
  };
  if (answer.direction !== 'down') {
    lines.push('## Supertypes (bases)', '');
    if (answer.supertypes.length === 0) lines.push('_None._');
    tree(answer.supertypes, 'supertypes', '');
    lines.push('');
  }
  if (answer.direction !== 'up') {
    lines.push('## Subtypes (derived)', '');
    if (answer.subtypes.length === 0) lines.push('_None._');
    tree(answer.subtypes, 'subtypes', '');
    lines.push('');
  }
  lines.push(`Depth ${answer.depth}; ${answer.nodes} nodes${answer.omitted > 0 ? `, ${answer.omitted} more left out past the cap` : ''}.`);
  lines.push(...serverLine(answer.server));
  if (answer.partial) lines.push(`**Partial:** ${answer.reason}.`);
  return lines.join('\n') + '\n';
}
