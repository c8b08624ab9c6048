import type { TSchema } from 'typebox';

/** A JSON Schema as plain data: what MCP's tools/list carries. */
export type JsonSchema = { [key: string]: unknown };

export interface ToolSchemaOptions {
  /** Schemas registered by $id (app.addSchema) that others reference by name, e.g. OutlineNode. */
  shared: TSchema[];
  /** Top-level properties to leave out: `format` means nothing to a tool. */
  omit?: string[];
}

/**
 * A route's typebox schema as a self-contained JSON Schema for a tool: `$ref: 'OutlineNode'`
 * becomes `#/$defs/OutlineNode` with the definition alongside, since an MCP client has no
 * registry to resolve bare ids against; nested `$id`s go so no client sees two schemas claim one id.
 */
export function toolSchema(schema: TSchema, options: ToolSchemaOptions): JsonSchema {
  const shared = new Map<string, JsonSchema>();
  for (const entry of options.shared) {
    const plain = toPlain(entry);
    if (typeof plain.$id === 'string') shared.set(plain.$id, plain);
  }
  const defs: Record<string, JsonSchema> = {};
  const pending: string[] = [];
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id') continue;
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        if (!shared.has(value)) throw new Error(`Schema reference '${value}' is not among the shared schemas`);
        if (!(value in defs) && !pending.includes(value)) pending.push(value);
        out.$ref = `#/$defs/${value}`;
        continue;
      }
      out[key] = rewrite(value);
    }
    return out;
  };

  const root = rewrite(toPlain(schema)) as JsonSchema;
  for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
    defs[id] = {};
    defs[id] = rewrite(shared.get(id)) as JsonSchema;
  }
  for (const name of options.omit ?? []) omitProperty(root, name);
  if (Object.keys(defs).length > 0) root.$defs = defs;
  return root;
}

/** typebox schemas carry symbol-keyed metadata; JSON keeps only what a client can read. */
function toPlain(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

function omitProperty(schema: JsonSchema, name: string): void {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties) delete properties[name];
  if (Array.isArray(schema.required)) schema.required = schema.required.filter((entry) => entry !== name);
}

/**
 * An answer's schema as tools/list gives it: the top-level fields with their types (constants and short enums
 * kept), a list's entries with their field names. Whole output schemas were 132 KB of a 170 KB tools/list, which
 * many clients put in the model's context on every turn; the whole shape is in openapi.yaml (GET /openapi.json).
 * Looser than the answer, never stricter: whatever the answer is, it validates.
 */
export function compactOutputSchema(schema: TSchema, shared: TSchema[]): JsonSchema {
  const byId = new Map<string, JsonSchema>();
  for (const entry of shared) {
    const plain = toPlain(entry);
    if (typeof plain.$id === 'string') byId.set(plain.$id, plain);
  }
  const resolve = (node: JsonSchema): JsonSchema => {
    const ref = node.$ref;
    return typeof ref === 'string' && byId.has(ref) ? resolve(byId.get(ref)!) : node;
  };
  const properties = (node: JsonSchema): Record<string, JsonSchema> | undefined => {
    const own = resolve(node);
    if (own.properties) return own.properties as Record<string, JsonSchema>;
    // A union of objects (a symbol or an external node): the fields of each.
    const members = (own.anyOf ?? own.oneOf) as JsonSchema[] | undefined;
    if (!members) return undefined;
    const merged: Record<string, JsonSchema> = {};
    for (const member of members) Object.assign(merged, properties(member) ?? {});
    return Object.keys(merged).length > 0 ? merged : undefined;
  };
  /** A field's type, no deeper: an object or array is only that. */
  const brief = (node: JsonSchema): JsonSchema => {
    const own = resolve(node);
    if ('const' in own) return { const: own.const };
    if (Array.isArray(own.enum)) return own.enum.length <= 8 ? { enum: own.enum } : { type: 'string' };
    const members = (own.anyOf ?? own.oneOf) as JsonSchema[] | undefined;
    if (members) {
      const parts = members.map(brief);
      if (parts.every((part) => 'const' in part)) return parts.length <= 8 ? { enum: parts.map((part) => part.const) } : { type: typeof parts[0]!.const };
      const types = [...new Set(parts.flatMap((part) => (typeof part.type === 'string' ? [part.type] : Array.isArray(part.type) ? part.type as string[] : ['const' in part ? typeof part.const : 'any'])))];
      return types.includes('any') ? {} : { type: types.length === 1 ? types[0] : types };
    }
    if (own.type === 'object' || own.properties) return { type: 'object' };
    return typeof own.type === 'string' || Array.isArray(own.type) ? { type: own.type } : {};
  };
  /** Lists and objects say so; other fields are named only. */
  const field = (node: JsonSchema): JsonSchema => {
    const type = brief(node).type;
    return type === 'array' || type === 'object' ? { type } : {};
  };
  const root = toPlain(schema);
  const fields = properties(root) ?? {};
  return { type: 'object', properties: Object.fromEntries(Object.entries(fields).map(([name, node]) => [name, field(node)])) };
}

/** Common parameters, described once here for every tool that takes them: a model knows what `limit` and `offset` are. */
const BRIEF_PARAMETERS: Record<string, string | null> = {
  symbol: 'Short or qualified name (`Config`, `ns::Widget::draw`, `flask.app.Flask`), or give `id`',
  id: 'A symbol id from an earlier answer',
  file: 'Path relative to the workspace root',
  containingType: 'Only members of this type',
  kind: 'Kind or comma-separated kinds (class, method, function...)',
  package: 'Package name (see list_packages)',
  language: null,
  scope: '`user`: workspace files only; `all`: extra roots too',
  limit: null,
  offset: null,
  max_tokens: 'Token budget: the answer is cut to fit and says what it left out',
  include_forward_declarations: 'true lists forward declarations (`class X;`) last',
};

/** Past this a parameter's description is cut at a sentence (a tool may give a shorter one: ToolBinding.parameters). */
const DESCRIPTION_MAX = 150;

function shortened(description: string): string {
  if (description.length <= DESCRIPTION_MAX) return description;
  const head = description.slice(0, DESCRIPTION_MAX);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('; '));
  if (sentence > DESCRIPTION_MAX / 3) return head.slice(0, sentence + 1).replace(/;$/, '');
  return `${head.slice(0, head.lastIndexOf(' '))}…`;
}

/**
 * A tool's input schema as tools/list gives it: common parameters briefly described (BRIEF_PARAMETERS), the
 * tool's own briefs (`own`), other descriptions cut at a sentence past DESCRIPTION_MAX, unions of constants as enums,
 * no bounds and defaults that go without saying (string lengths, offsets past a million, a minimum of 0, a default of
 * false or 0) and the language as a string (a wrong one is a 400 naming them all). The routes keep the whole
 * descriptions (openapi.yaml, docs/API.md).
 */
export function compactInputSchema(schema: JsonSchema, own: Record<string, string> = {}): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return schema;
  const compact = Object.fromEntries(Object.entries(properties).map(([name, property]) => {
    const { maxLength: _maxLength, anyOf, description, ...rest } = property;
    const out: JsonSchema = { ...rest };
    if (typeof out.maximum === 'number' && out.maximum >= 100_000) delete out.maximum;
    // What goes without saying: no offset below 0, false and 0 when absent. The server still checks them.
    if (out.minimum === 0) delete out.minimum;
    if (out.default === false || out.default === 0) delete out.default;
    // The languages are named in every answer, and a wrong one is a 400 that lists them.
    if (name === 'language' && Array.isArray(out.enum)) {
      delete out.enum;
      out.type = 'string';
    }
    const members = anyOf as JsonSchema[] | undefined;
    if (members?.every((member) => 'const' in member)) out.enum = members.map((member) => member.const);
    else if (members) out.anyOf = members;
    const brief = own[name] ?? (name in BRIEF_PARAMETERS ? BRIEF_PARAMETERS[name] : description);
    if (typeof brief === 'string') out.description = shortened(brief);
    return [name, out];
  }));
  return { ...schema, properties: compact };
}
