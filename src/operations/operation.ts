/**
 * One definition per operation: its HTTP route (path, aliases, schemas), its MCP tool (name, description
 * for a model), the use case that answers it and its markdown rendering. routes/operations.ts makes the
 * Fastify routes from the list in ./index.ts, src/mcp/ the tools, and openapi.yaml comes from the routes:
 * adding an operation is adding its file here, its use case, its schema and its tests.
 */
import type { Static, TObject, TSchema } from 'typebox';
import type { Services } from '../services.js';

export interface HttpBinding {
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
}

export interface ToolBinding {
  name: string;
  title: string;
  /** Written for a model: what it is for, when to prefer another tool, one example call. */
  description: string;
  /** For a tool without its own route: the endpoint it is a form of (`GET /symbols` for get_symbol). */
  mirrors?: string;
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
  /** The compact rendering for `format=markdown` and the MCP tool's text; absent where the answer is JSON only. */
  markdown?: (result: Result) => string;
}

/** An operation with its types erased, as the route maker and the MCP server handle it. */
export type Operation = OperationDefinition<TObject, unknown>;

/** Keeps an operation's input and result types checked against each other, then erases them. */
export function defineOperation<Input extends TObject, Result>(operation: OperationDefinition<Input, Result>): Operation {
  return operation as unknown as Operation;
}

/** `GET /packages/{name}/symbols`: how tests and tool listings name an operation's route. */
export function endpointOf(operation: Operation): string | undefined {
  return operation.http ? `GET ${operation.http.path.replace(/:([A-Za-z_]+)/g, '{$1}')}` : operation.tool?.mirrors;
}
