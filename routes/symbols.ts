import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { SymbolSearchQuery, SymbolSearchResponse } from '../schemas/symbols.js';
import { searchSymbols } from '../src/symbols/search.js';
import { symbolSearchMarkdown } from '../src/format/symbols.js';
import { sendResult } from '../src/format/negotiate.js';

const symbolRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/symbols', {
    schema: {
      summary: 'Find symbols by name across the workspace',
      description: [
        'Solution-wide search over the index: no file path needed. Ranked by tier: case-sensitive exact name, case-insensitive exact, prefix, CamelCase initials (`FPC` finds FMyPlayerController), substring, then words of the signature and return type (`Receipt` finds `processPayment(...): Receipt`).',
        'Within a tier: workspace before extra roots, definitions before declarations, then name, file and line.',
        'Forward declarations (`class X;`) are grouped out and counted in forwardDeclarations; include_forward_declarations=true appends them.',
        '`match=exact` is get_symbol: only names equal to the query, from every package unless `package` narrows it; none → 404 `Symbol \'<name>\' not found`.',
        '`id` returns the symbol with that id. While the index builds, answers carry partial: true and the progress.',
      ].join(' '),
      tags: ['symbols'],
      querystring: SymbolSearchQuery,
      response: { 200: SymbolSearchResponse, ...errorResponses([400, 404]) },
    },
  }, async (request, reply) => sendResult(request, reply, await searchSymbols(app.plumb, request.query), symbolSearchMarkdown));
};

export default symbolRoutes;
