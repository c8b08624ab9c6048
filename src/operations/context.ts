import { ContextQuery, ContextResponse } from '../../schemas/context.js';
import { contextMarkdown } from '../format/context.js';
import { symbolContext } from '../symbols/context.js';
import { defineOperation } from './operation.js';

export const contextOperation = defineOperation({
  http: {
    path: '/symbols/context',
    summary: 'One symbol whole: code, doc, members, callers, callees, usages, tests',
    description: [
      'Everything about one symbol in one answer, so the usual next question needs no second call: its definitions and declarations with their code (find_declaration, cut after 60 lines), signature and doc; for a type its bases and members (list_members), its inheritors and their overrides; for a method its overrides and implementations; for a function its direct callers and callees (find_callers, find_callees); its usage count with the first usages (find_usages); and the tests that reach it two calls deep (as find_impact finds them).',
      'Each part is capped and counted (`membersTotal`, `callersTotal`...), and `parts` says where each came from and its precision; a part that fails is said in `reason` and the others stand.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/context?symbol=testing::internal::WideStringToUtf8',
  },
  tool: {
    name: 'symbol_context',
    title: 'Everything about one symbol',
    description: [
      'One call for the usual questions about a symbol: its code, signature and doc, a type\'s bases, members and inheritors, a method\'s overrides, a function\'s callers and callees, how often it is used (with the first usages) and which tests reach it.',
      'Use it first when you are about to read or change a symbol; the single-purpose tools give any one part in full.',
      'Example: {"symbol": "WideStringToUtf8"}',
    ].join(' '),
  },
  input: ContextQuery,
  response: ContextResponse,
  run: (services, query, signal) => symbolContext(services, query, signal),
  markdown: contextMarkdown,
});
