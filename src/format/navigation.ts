/** Markdown renderings of declaration, members and counterpart answers: what an agent needs to act, ids included. */
import type { CounterpartResponse, DeclarationResponse, Member, MembersResponse } from '../../schemas/navigation.js';
import { languageById } from '../languages/index.js';
import { displayKind } from '../kinds.js';
import { fenced, markdownTable } from './markdown.js';

const number = new Intl.NumberFormat('en-US');

interface Envelope {
  results: unknown[];
  offset: number;
  totalMatches: number;
  truncated: boolean;
  forwardDeclarations: number;
  partial?: boolean;
  reason?: string;
}

function plural(count: number, noun: string): string {
  return `${number.format(count)} ${noun}${count === 1 ? '' : 's'}`;
}

function summary(list: Envelope, noun: string, forwardListed: boolean): string[] {
  const shown = list.results.length;
  const lines: string[] = [];
  if (list.truncated || list.offset > 0) {
    const range = shown === 0 ? 'none' : `${number.format(list.offset + 1)}-${number.format(list.offset + shown)}`;
    lines.push(`Showing ${range} of ${plural(list.totalMatches, noun)}${list.truncated ? ' (truncated: raise offset for more)' : ''}.`);
  } else {
    lines.push(`${plural(list.totalMatches, noun)}.`);
  }
  if (list.forwardDeclarations > 0) {
    lines.push(forwardListed
      ? `${plural(list.forwardDeclarations, 'forward declaration')} listed last.`
      : `${plural(list.forwardDeclarations, 'forward declaration')} skipped (include_forward_declarations=true lists them).`);
  }
  if (list.partial) lines.push(`**Partial:** ${list.reason ?? 'the index is still building'}.`);
  return lines;
}

function firstLine(doc: string | null): string | undefined {
  const line = doc?.split('\n').map((l) => l.trim()).find((l) => l !== '');
  return line && line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function declarationMarkdown(response: DeclarationResponse): string {
  const forwardListed = response.results.some((place) => place.forwardDeclaration);
  const lines = [
    `# Declarations of \`${response.symbol}\``,
    '',
    ...summary(response, 'place', forwardListed),
    `${plural(response.symbols, 'symbol')} matched; one symbol's places are listed together, definitions first.`,
  ];
  for (const place of response.results) {
    const context = place.forwardDeclaration ? 'forward declaration' : place.context;
    lines.push('', `## ${place.qualifiedName || place.name} — ${displayKind(place.kind)}, ${context} — ${place.file}:${place.line} — id \`${place.id}\``);
    if (place.signature) lines.push(`Signature: \`${place.signature.replace(/`/g, "'")}\``);
    const doc = firstLine(place.doc);
    if (doc) lines.push(`Doc: ${doc}`);
    if (place.snippet) {
      lines.push(`Lines ${place.snippet.startLine}-${place.snippet.endLine}:`, fenced(place.snippet.text, languageById(place.language)?.fence ?? place.language));
      if (place.snippet.omittedLines) lines.push(`(cut: ${plural(place.snippet.omittedLines, 'more line')} of this declaration not shown)`);
      else if (place.snippet.truncated) lines.push('(long lines clipped)');
    } else if (place.snippetError) {
      lines.push(`(no code: ${place.snippetError})`);
    }
  }
  return lines.join('\n') + '\n';
}

function memberKind(member: Member): string {
  const notes = [member.visibility, member.static ? 'static' : undefined, member.definition ? undefined : 'declaration'].filter(Boolean);
  return `${displayKind(member.kind)}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

export function membersMarkdown(response: MembersResponse): string {
  const type = response.symbol;
  const lines = [
    `# Members of \`${type.qualifiedName || type.name}\` (${displayKind(type.kind)}, ${type.file}:${type.line}, id \`${type.id}\`)`,
  ];
  if (type.signature) lines.push(`Signature: \`${type.signature.replace(/`/g, "'")}\``);
  const doc = firstLine(type.doc);
  if (doc) lines.push(`Doc: ${doc}`);
  if (response.bases.length > 0) {
    lines.push(`Bases: ${response.bases.map((base) => {
      const where = base.resolved ? `${base.qualifiedName ?? base.name}, id \`${base.id}\`` : `${base.name}, not in the index`;
      return `${where}${base.via ? ` via ${base.via}` : ''}`;
    }).join('; ')}`);
  }
  lines.push('', ...summary(response, 'member', false));
  if (response.results.length > 0) {
    const rows = response.results.map((member) => [
      member.name,
      memberKind(member),
      member.file === type.file ? String(member.line) : `${member.file}:${member.line}`,
      member.signature,
      [member.inheritedFrom ?? '', member.overrides ? `overrides ${member.overrides.qualifiedName}` : ''].filter(Boolean).join('; '),
      member.id,
    ]);
    lines.push('', markdownTable(['Name', 'Kind', 'Line', 'Signature', 'Inherited from', 'Id'], rows));
  }
  return lines.join('\n') + '\n';
}

export function counterpartMarkdown(response: CounterpartResponse): string {
  const lines = [`# Counterparts of \`${response.file}\` (${response.role})`, '', ...summary(response, 'counterpart', false)];
  if (response.results.length > 0) {
    lines.push('', markdownTable(['File', 'Role', 'Reason', 'Shared, e.g.'], response.results.map((result) => [
      result.file, result.role, result.reason, result.examples.slice(0, 3).join(', '),
    ])));
  } else {
    lines.push('', 'No header or source shares its symbols or its base name.');
  }
  return lines.join('\n') + '\n';
}
