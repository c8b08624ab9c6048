/**
 * The operations part of docs/API.md, made from the definitions (npm run docs writes it; a test fails
 * when the file drifts), so the reference cannot disagree with the code.
 */
import type { TObject, TSchema } from 'typebox';
import { OPERATIONS, endpointOf, type Operation } from './index.js';

/** Everything above this line of docs/API.md is written by hand; everything below is generated. */
export const GENERATED_MARKER = '<!-- Generated from src/operations/ by `npm run docs`: edit the definitions, not the text below. -->';

type Schema = Record<string, unknown>;

/** The operations plumb is to serve; those without a definition yet are listed as planned. */
const DESIGNED = [
  'GET /symbols', 'GET /symbols/declaration', 'GET /symbols/resolve', 'GET /symbols/usages', 'GET /symbols/inheritors',
  'GET /symbols/hierarchy', 'GET /symbols/members', 'GET /symbols/counterpart', 'GET /symbols/implementations',
  'GET /symbols/callers', 'GET /symbols/callees', 'GET /symbols/signature', 'GET /symbols/doc', 'GET /packages',
  'GET /packages/{name}/symbols', 'GET /outline', 'GET /children', 'GET /statements', 'GET /symbols/impact', 'POST /changes',
  'GET /symbols/context', 'GET /symbols/path', 'POST /batch', 'GET /status', 'GET /health',
];

function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (Array.isArray(schema.anyOf)) {
    const parts = (schema.anyOf as Schema[]).map((s) => ('const' in s ? `\`${String(s.const)}\`` : typeOf(s)));
    return parts.join(' \\| ');
  }
  if ('const' in schema) return `\`${String(schema.const)}\``;
  const type = schema.type;
  if (type === 'integer') {
    const range = [schema.minimum !== undefined ? `≥ ${String(schema.minimum)}` : '', schema.maximum !== undefined ? `≤ ${String(schema.maximum)}` : ''].filter(Boolean).join(', ');
    return range ? `integer (${range})` : 'integer';
  }
  return typeof type === 'string' ? type : 'value';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
}

function parameterRows(input: TObject, pathParams: Set<string>, http: 'GET' | 'POST' | undefined): string[] {
  const required = new Set((input as unknown as { required?: string[] }).required ?? []);
  return Object.entries(input.properties as Record<string, TSchema>).map(([name, property]) => {
    const schema = property as unknown as Schema;
    const where = pathParams.has(name) ? 'path' : http === 'POST' && name !== 'format' ? 'body' : http ? 'query' : 'argument';
    const fallback = schema.default !== undefined ? `\`${JSON.stringify(schema.default).replace(/^"|"$/g, '')}\`` : '';
    const description = typeof schema.description === 'string' ? schema.description : '';
    return `| \`${name}\` | ${where}${required.has(name) ? ', required' : ''} | ${typeOf(schema)} | ${fallback} | ${cell(description)} |`;
  });
}

function section(operation: Operation): string {
  const lines: string[] = [];
  const http = operation.http;
  const tool = operation.tool;
  if (http) {
    lines.push(`### ${endpointOf(operation)}`, '', `**${http.summary}.** ${http.description}`, '');
    if (http.aliases?.length) lines.push(`Also answered at ${http.aliases.map((a) => `\`${http.method ?? 'GET'} ${a}\``).join(', ')}.`, '');
  } else if (tool) {
    lines.push(`### MCP \`${tool.name}\``, '', `**${tool.title}.** ${tool.mirrors ? `The same answer as \`${tool.mirrors}\`. ` : ''}${tool.description}`, '');
  }
  if (tool && http) lines.push(`MCP tool: \`${tool.name}\`.`, '');
  const pathParams = new Set(Object.keys(http?.params?.properties ?? {}));
  const rows = parameterRows(operation.input, pathParams, http ? http.method ?? 'GET' : undefined);
  if (rows.length) lines.push('| parameter | in | type | default | meaning |', '|---|---|---|---|---|', ...rows, '');
  if (http) {
    const errors = http.errors.length ? http.errors.join(', ') : 'none besides 401/429';
    lines.push(`Errors: ${errors}.`, '');
    if (http.example && http.exampleBody !== undefined) {
      lines.push('```sh', `curl -X ${http.method ?? 'GET'} 'http://127.0.0.1:7077${http.example}' -H 'content-type: application/json' \\`, `  -d '${JSON.stringify(http.exampleBody)}'`, '```', '');
    } else if (http.example) {
      lines.push('```sh', `curl 'http://127.0.0.1:7077${http.example}'`, '```', '');
    }
  }
  return lines.join('\n');
}

/** The generated part: an index of the operations, then one section each. */
export function operationsMarkdown(operations: Operation[] = OPERATIONS): string {
  const index = operations.map((operation) => {
    const name = operation.http ? `\`${endpointOf(operation)}\`` : `MCP \`${operation.tool?.name}\``;
    const summary = operation.http?.summary ?? operation.tool?.title ?? '';
    return `| ${name} | ${operation.tool && operation.http ? `\`${operation.tool.name}\`` : operation.tool ? '(tool only)' : '—'} | ${cell(summary)} |`;
  });
  const built = new Set(operations.map(endpointOf));
  const planned = DESIGNED.filter((endpoint) => !built.has(endpoint));
  return [
    '## Operations',
    '',
    '| endpoint | MCP tool | what |',
    '|---|---|---|',
    ...index,
    '',
    ...(planned.length ? [`Planned, not built yet: ${planned.map((endpoint) => `\`${endpoint}\``).join(', ')}.`, ''] : []),
    ...operations.map(section),
  ].join('\n');
}

/** docs/API.md with its generated part replaced. */
export function apiDocument(current: string): string {
  const at = current.indexOf(GENERATED_MARKER);
  const head = at >= 0 ? current.slice(0, at) : `${current.trimEnd()}\n\n`;
  return `${head}${GENERATED_MARKER}\n\n${operationsMarkdown()}`;
}
