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
