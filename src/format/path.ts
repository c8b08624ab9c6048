/** Markdown for a call path: the chain on one line, then each step with where it calls the next. */
import type { CallNode } from '../../schemas/calls.js';
import type { PathResponse } from '../../schemas/path.js';
import { displayKind } from '../kinds.js';
import { markdownTable } from './markdown.js';

function nodeName(node: CallNode): string {
  return 'id' in node ? node.qualifiedName || node.name : node.name;
}

export function pathMarkdown(answer: PathResponse): string {
  const lines = [`# Call path from \`${answer.from.qualifiedName || answer.from.name}\` to \`${answer.to.qualifiedName || answer.to.name}\``, ''];
  lines.push(answer.results.map((step) => `\`${nodeName(step.symbol)}\``).join(' → '), '');
  lines.push(`${answer.length} call${answer.length === 1 ? '' : 's'}, found through the ${answer.found} (${answer.precision}).${answer.reason ? ` Note: ${answer.reason}.` : ''}`);
  lines.push('', markdownTable(['Step', 'Function', 'Kind', 'File:Line', 'Calls the next at', 'Id'], answer.results.map((step) => [
    String(step.step),
    nodeName(step.symbol),
    'id' in step.symbol ? displayKind(step.symbol.kind) : step.symbol.kind,
    step.symbol.file ? `${step.symbol.file}:${step.symbol.line ?? ''}` : '',
    step.calls.slice(0, 2).map((call) => `${call.file}:${call.line}${call.text ? ` \`${call.text.length > 70 ? `${call.text.slice(0, 69)}…` : call.text}\`` : ''}`).join('; '),
    'id' in step.symbol ? step.symbol.id : '',
  ])));
  return lines.join('\n') + '\n';
}
