/**
 * One definition per operation: its HTTP route (path, aliases, schemas), its MCP tool (name, description
 * for a model), the use case that answers it and its markdown rendering. routes/operations.ts makes the
 * Fastify routes from the list in ./index.ts, src/mcp/ the tools, and openapi.yaml comes from the routes:
 * adding an operation is adding its file here, its use case, its schema and its tests.
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { MaxTokensParam, TokenBudget } from '../../schemas/budget.js';
import type { Services } from '../services.js';

export interface HttpBinding {
  /**
   * GET (the default) reads the input from the querystring; POST from a JSON body, all of it but `format`,
   * which stays in the querystring (`POST /batch?format=markdown`).
   */
  method?: 'GET' | 'POST';
  /** Fastify path, `:name` for a path parameter (`/packages/:name/symbols`). */
  path: string;
  /** Other paths answered by the same handler (`/usages` for `/symbols/usages`); left out of the OpenAPI description. */
  aliases?: string[];
  /** Path parameters; the use case gets them merged with the query. */
  params?: TObject;
  summary: string;
  /** For the OpenAPI description: what it answers and how. */
  description: string;
  tags: string[];
  /** Error statuses besides 401/429 (which every route may give). */
  errors: number[];
  /** One request a user would make, path and query (`/symbols/declaration?symbol=Config`): shown in docs/API.md. */
  example?: string;
  /** A POST's example body, shown with the example in docs/API.md. */
  exampleBody?: unknown;
}

export interface ToolBinding {
  name: string;
  title: string;
  /** Written for a model: when to use it, in a sentence or two, and one example call (tools/list stays under 40 KB). */
  description: string;
  /** For a tool without its own route: the endpoint it is a form of (`GET /symbols` for get_symbol). */
  mirrors?: string;
  /**
   * Shorter descriptions of parameters for tools/list, where the schema's own (kept in openapi.yaml and docs/API.md)
   * is long: src/mcp/schema.ts cuts a long one at a sentence, which may drop what matters most.
   */
  parameters?: Record<string, string>;
}

export interface OperationDefinition<Input extends TObject, Result> {
  /** The HTTP route; absent for a tool that is another route with a fixed parameter (get_symbol). */
  http?: HttpBinding;
  /** The MCP tool; absent for a route agents have no use for (/health). */
  tool?: ToolBinding;
  /** Everything the use case takes: path parameters and querystring together (the querystring schema is this less the params). */
  input: Input;
  /** The 200 answer. */
  response: TSchema;
  /** Schemas referenced by $id from input or response (added to Fastify once, carried as $defs in tool schemas). */
  shared?: TSchema[];
  run(services: Services, input: Static<Input>, signal: AbortSignal): Promise<Result> | Result;
  /**
   * The compact rendering for `format=markdown` and the MCP tool's text; absent where the answer is JSON only.
   * An operation with one takes `max_tokens` (added to its input here): src/operations/budget.ts cuts the answer to fit.
   */
  markdown?: (result: Result) => string;
  /** The use case fits `max_tokens` itself (a batch shares it among its requests): its answer is not cut again. */
  ownBudget?: boolean;
  /** How many requests this one counts as toward the rate limit (a batch: the requests it carries); 1 when absent. */
  requestCount?: (input: Static<Input>) => number;
}

/** An operation with its types erased, as the route maker and the MCP server handle it. */
export type Operation = OperationDefinition<TObject, unknown>;

/**
 * Keeps an operation's input and result types checked against each other, then erases them. An operation with a
 * markdown rendering takes `max_tokens` (unless its input has its own) and may answer with `budget`.
 */
export function defineOperation<Input extends TObject, Result>(operation: OperationDefinition<Input, Result>): Operation {
  const erased = operation as unknown as Operation;
  if (!erased.markdown) return erased;
  const input = 'max_tokens' in erased.input.properties ? erased.input : withProperties(erased.input, { ...erased.input.properties, max_tokens: MaxTokensParam });
  if (erased.ownBudget) return { ...erased, input };
  return { ...erased, input, response: withBudget(erased.response), shared: [...(erased.shared ?? []), TokenBudget] };
}

/** The 200 answer's schema with the optional `budget` a cut answer carries. */
function withBudget(response: TSchema): TSchema {
  const properties = (response as { properties?: Record<string, TSchema> }).properties;
  if (!properties || 'budget' in properties) return response;
  return withProperties(response, { ...properties, budget: Type.Optional(Type.Ref('TokenBudget')) });
}

/** A copy of an object schema with other properties; typebox's own markers (`~kind`, not enumerable) kept, which a spread would drop. */
function withProperties<T extends TSchema>(schema: T, properties: Record<string, TSchema>): T {
  const copy = Object.create(Object.getPrototypeOf(schema) as object, Object.getOwnPropertyDescriptors(schema)) as T & { properties: Record<string, TSchema> };
  copy.properties = properties;
  return copy;
}

/** `GET /packages/{name}/symbols`, `POST /batch`: how tests and tool listings name an operation's route. */
export function endpointOf(operation: Operation): string | undefined {
  return operation.http ? `${operation.http.method ?? 'GET'} ${operation.http.path.replace(/:([A-Za-z_]+)/g, '{$1}')}` : operation.tool?.mirrors;
}
