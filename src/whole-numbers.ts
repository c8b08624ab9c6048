/**
 * Whole-number parameters (limit, offset, line, column, depth, context_lines) take decimal integers only,
 * over HTTP and MCP alike. typebox's Value.Convert, which both paths use to read a querystring or a
 * model's arguments, is lenient: `2.7` becomes 2, `0x10` 16, `1e3` 1000, ` 5` and `+5` 5. This check runs
 * on the raw value first, so anything but digits (with an optional minus) is a 400 naming the parameter.
 */
import type { TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';

export interface WholeNumberIssue {
  instancePath: string;
  keyword: 'decimalInteger';
  params: { parameter: string };
  message: string;
}

const DECIMAL = /^-?[0-9]+$/;

/** Whether a property's schema is an integer (alone, or with null or other integers in a union). */
function isIntegerSchema(schema: TSchema | undefined): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as { type?: unknown; anyOf?: TSchema[] };
  if (s.type === 'integer') return true;
  if (Array.isArray(s.anyOf)) return s.anyOf.some((member) => (member as { type?: unknown }).type === 'integer') && s.anyOf.every((member) => ['integer', 'null'].includes(String((member as { type?: unknown }).type)));
  return false;
}

/** A raw value that is a whole number as sent: digits in a string (querystring, a model's "5"), or an integral JSON number. */
export function isDecimalInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'string' && DECIMAL.test(value);
}

/** The first integer parameter of `schema` whose raw value in `value` is not a decimal integer. */
export function wholeNumberIssue(schema: TSchema, value: unknown): WholeNumberIssue | undefined {
  const properties = (schema as TObject).properties;
  if (!properties || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const [name, property] of Object.entries(properties)) {
    if (!isIntegerSchema(property)) continue;
    const raw = (value as Record<string, unknown>)[name];
    if (raw === undefined || isDecimalInteger(raw)) continue;
    return { instancePath: `/${name}`, keyword: 'decimalInteger', params: { parameter: name }, message: 'must be a decimal integer (digits only, such as 20)' };
  }
  return undefined;
}

/** Value.Convert after the whole-number check: what the HTTP validator and the MCP tools both do. */
export function convertArguments(schema: TSchema, value: unknown): { value: unknown } | { issue: WholeNumberIssue } {
  const issue = wholeNumberIssue(schema, value);
  if (issue) return { issue };
  return { value: Value.Convert(schema, value) };
}
