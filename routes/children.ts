import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { ChildrenQuery, ChildrenResponse } from '../schemas/children.js';
import { childrenOptionsFromQuery, getChildren } from '../src/symbols/children.js';
import { childrenMarkdown } from '../src/format/outline.js';
import { sendResult } from '../src/format/negotiate.js';
import { abortSignalOf } from './abort.js';

const childrenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/children', {
    schema: {
      summary: 'Children of the symbol at a position',
      description: 'The symbol at file:line:column (its name first, else the innermost symbol whose range holds the position) and its descendants down to depth, flat in document order, each with parent and depth; hover text per child with include_hover=true (skipped past hover.maxSymbols children, and the answer says so).',
      tags: ['navigation'],
      querystring: ChildrenQuery,
      response: { 200: ChildrenResponse, ...errorResponses([400, 404, 503, 504]) },
    },
  }, async (request, reply) => {
    const answer = await getChildren(app.plumb, childrenOptionsFromQuery(request.query, abortSignalOf(reply)));
    return sendResult(request, reply, answer, childrenMarkdown);
  });
};

export default childrenRoutes;
