import type { OutlineNode, OutlineResponse } from '../../schemas/outline.js';
import type { ChildrenResponse } from '../../schemas/children.js';
import type { Range } from '../../schemas/common.js';
import { displayKind } from '../kinds.js';
import { fenced, fenceLanguage, markdownTable } from './markdown.js';

/** The seed's nested list: `- **User** (`Class`)`, children indented, fenced code under requested symbols. */
export function outlineMarkdown(outline: OutlineResponse): string {
  const lines = [`# Outline of ${outline.file}`, ''];
  const fence = fenceLanguage(outline.language);
  const visit = (node: OutlineNode, indent: string): void => {
    const detail = node.detail ? ` — ${node.detail.replace(/\s+/g, ' ')}` : '';
    const omitted = node.omittedChildren ? ` (+${node.omittedChildren} nested, not shown)` : '';
    const written = node.serverName ? ` \`${node.serverName}\`` : '';
    lines.push(`${indent}- **${node.name}**${written} (\`${displayKind(node.kind)}\`) L${node.line}${detail}${omitted}`);
    if (node.symbolContent !== undefined) {
      for (const codeLine of fenced(node.symbolContent, fence).split('\n')) lines.push(`${indent}  ${codeLine}`);
    }
    for (const child of node.children) visit(child, `${indent}  `);
  };
  if (outline.reason) lines.push(`_From the index: ${outline.reason}._`, '');
  outline.results.forEach((node) => visit(node, ''));
  if (outline.results.length === 0) lines.push('_No symbols._');
  if (outline.truncated) lines.push('', `_Truncated: ${outline.omittedSymbols} more symbols not shown (outline.maxSymbols); ask for a smaller depth, or /children of one symbol._`);
  for (const request of outline.displayCodeFor ?? []) {
    if (request.matches === 0) lines.push('', `_No symbol matched \`${request.query}\` in display_code_for._`);
  }
  return lines.join('\n') + '\n';
}

export function formatRange(range: Range): string {
  return `${range.start.line}:${range.start.column}-${range.end.line}:${range.end.column}`;
}

/** The seed's table: NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO. */
export function childrenMarkdown(answer: ChildrenResponse): string {
  const { symbol } = answer;
  const lines = [
    `# Children of ${symbol.name} (\`${displayKind(symbol.kind)}\`) in ${answer.file}:${symbol.line} — depth ${answer.depth}, ${answer.results.length} symbol${answer.results.length === 1 ? '' : 's'}`,
    '',
  ];
  if (answer.reason) lines.push(`_From the index: ${answer.reason}._`, '');
  if (answer.hover.skipped) lines.push(`_Hover skipped: ${answer.hover.reason}_`, '');
  if (answer.truncated) lines.push(`_Truncated: ${answer.omittedSymbols} more symbols not shown (outline.maxSymbols); ask for a smaller depth or a nested symbol._`, '');
  lines.push(markdownTable(
    ['NAME', 'KIND', 'RANGE', 'SELECTION', 'PARENT', 'HOVER_INFO'],
    answer.results.map((child) => [
      `${'  '.repeat(child.depth - 1)}${child.name}`,
      displayKind(child.kind),
      formatRange(child.range),
      formatRange(child.selectionRange),
      child.parent,
      child.hover ? hoverSummary(child.hover) : '',
    ]),
  ));
  return lines.join('\n') + '\n';
}

/** Hover text flattened to one table cell: code fences dropped, whitespace collapsed. */
function hoverSummary(hover: string): string {
  return hover.replace(/```[a-z]*\n?/g, '').replace(/\s+/g, ' ').trim().slice(0, 300);
}
