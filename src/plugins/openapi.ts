import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponse } from '../../schemas/common.js';
import { VERSION } from '../version.js';

const DESCRIPTION = [
  'Solution-wide code navigation for LLM agents and HTTP clients: find a symbol by name without knowing its file, get its declaration with code, its usages, members, inheritors, type hierarchy and callers, outline a file, search statements, from an index of the whole workspace and a pool of language servers.',
  'Every route answers JSON by default and a compact markdown rendering with `format=markdown` or `Accept: text/markdown`. Errors are `{"error": {"code", "message"}}`. Paths are relative to the workspace root; lines and columns are 1-based. The same operations are MCP tools at /mcp.',
].join('\n\n');

/** What each status means, for the description of every response. */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  200: 'The answer',
  202: 'Accepted',
  400: 'Bad input: the message names the parameter and what is allowed',
  401: 'Missing or wrong bearer token (only when plumb runs with a token)',
  404: 'Nothing there: the file, symbol, package or position named',
  409: 'Ambiguous name: the error lists the candidates with their ids',
  429: 'Rate limit exceeded (Retry-After says when to retry)',
  503: 'A language server is missing, not ready, or not answering (unhealthy, being restarted): the message names it and how to install it, or why (Retry-After)',
  504: 'A language server did not answer within lsp.requestTimeoutMs (time queued for it included)',
};

type Schema = Record<string, unknown>;

/**
 * Route schemas as documentation: a description per response status, the 401 and 429 every route
 * can give, and text/markdown beside JSON where a route takes `format`. The routes' own schemas stay untouched.
 */
function documentRoute(schema: Schema, url: string): Schema {
  const querystring = schema.querystring as { properties?: Schema } | undefined;
  const markdown = querystring?.properties !== undefined && 'format' in querystring.properties;
  const responses: Record<string, unknown> = { ...(schema.response as Schema | undefined) };
  if (url !== '/health' && !('401' in responses)) responses['401'] = ErrorResponse;
  if (!('429' in responses)) responses['429'] = ErrorResponse;
  for (const [status, given] of Object.entries(responses)) {
    // The one error body is one component, not a copy under every status of every route.
    const response = given === ErrorResponse ? { $ref: 'ErrorResponse' } : given;
    const own = given === ErrorResponse ? undefined : (response as Schema).description as string | undefined;
    const description = (status === '200' ? undefined : own) ?? STATUS_DESCRIPTIONS[status] ?? own ?? 'Answer';
    responses[status] = status === '200' && markdown
      ? {
        description: `${description}: JSON, or markdown with format=markdown or Accept: text/markdown`,
        content: {
          'application/json': { schema: response },
          'text/markdown': { schema: { type: 'string', description: 'The same answer rendered compactly for a model\'s context window' } },
        },
      }
      : given === ErrorResponse
        ? { description, content: { 'application/json': { schema: response } } }
        : { ...(response as Schema), 'x-response-description': status === '200' ? own ?? description : description };
  }
  return { ...schema, response: responses };
}

/**
 * OpenAPI 3.1 from the route schemas. Registered before the routes, whose schemas it collects
 * as they are added; /openapi.json serves it, /docs browses it.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'plumb', version: VERSION, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
      tags: [
        { name: 'symbols', description: 'Solution-wide symbol search and packages, from the index' },
        { name: 'navigation', description: 'One symbol or position: declaration, usages, members, hierarchy, calls, outlines, children' },
        { name: 'statements', description: 'Statement search by text, regex or an XPath-like path over the syntax tree' },
        { name: 'status', description: 'Health, index and language-server state' },
        { name: 'mcp', description: 'The Model Context Protocol endpoint (Streamable HTTP)' },
        { name: 'docs', description: 'This description' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Required on every route but /health when plumb runs with a token (PLUMB_TOKEN or "token" in plumb.json)' },
        },
      },
      // Either a bearer token or nothing: a plumb without a token takes none.
      security: [{ bearerAuth: [] }, {}],
    },
    transform: ({ schema, url }) => ({ schema: (schema ? documentRoute(schema as Schema, url) : schema) as typeof schema, url }),
    // Shared schemas keep their $id as the component name (OutlineNode), not def-0.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  app.addSchema({ ...ErrorResponse, $id: 'ErrorResponse' });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', {
    schema: {
      summary: 'This API as OpenAPI 3.1',
      description: 'The OpenAPI 3.1 description generated from the route schemas, the same as openapi.yaml in the repository. /docs browses it.',
      tags: ['docs'],
      response: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document' }) },
    },
  }, async () => app.swagger());
}

/** The description as openapi.yaml holds it (npm run openapi writes it; a test compares). */
export function openApiYaml(app: FastifyInstance): string {
  return app.swagger({ yaml: true });
}
