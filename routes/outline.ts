import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { OutlineNodeSchema, OutlineQuery, OutlineResponse } from '../schemas/outline.js';
import { getOutline, outlineOptionsFromQuery } from '../src/symbols/outline.js';
import { outlineMarkdown } from '../src/format/outline.js';
import { sendResult } from '../src/format/negotiate.js';
import { abortSignalOf } from './abort.js';

const outlineRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(OutlineNodeSchema);
  app.get('/outline', {
    schema: {
      summary: 'Symbol tree of a file',
      description: 'The file\'s symbols from the language server (textDocument/documentSymbol), nested through `children`, with normalized kinds and 1-based ranges. Symbols named in display_code_for carry their source in symbolContent.',
      tags: ['navigation'],
      querystring: OutlineQuery,
      response: { 200: OutlineResponse, ...errorResponses([400, 404, 503, 504]) },
    },
  }, async (request, reply) => {
    const outline = await getOutline(app.plumb, outlineOptionsFromQuery(request.query, abortSignalOf(reply)));
    return sendResult(request, reply, outline, outlineMarkdown);
  });
};

export default outlineRoutes;
