import { CallsQuery, CallsResponse } from '../../schemas/calls.js';
import { callsMarkdown } from '../format/calls.js';
import { findCalls } from '../symbols/calls.js';
import { defineOperation } from './operation.js';

const COMMON = 'The symbol resolves like every symbol operation (a function, method or constructor; 409 with candidate ids when a name is ambiguous). `depth` 1 (default) to 3 walks further, each function once at its shallowest depth, with `via` (the function one level nearer); recursion cannot loop. Each result is the index symbol (with its id), or `indexed: false` for one the index does not hold (a library function outside the workspace, top-level code). Where the language\'s server cannot answer (none configured, not installed, failing, or without call hierarchy: `server` says which and why), the answer is syntactic, `precision: "syntactic"`.';

export const callersOperation = defineOperation({
  http: {
    path: '/symbols/callers',
    summary: 'Functions calling a function',
    description: [
      'Who calls this function (Rider\'s Ctrl+Alt+H, incoming): the language server\'s callHierarchy/incomingCalls (clangd, the TypeScript server, pyright, gopls), each caller with its call sites (file, line, column, the line\'s text).',
      COMMON,
      'The syntactic callers are the call expressions naming the function in the indexed files of its language, grouped by the symbol enclosing each call.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/callers?symbol=testing::internal::ParseGoogleTestFlagsOnly&depth=2',
  },
  tool: {
    name: 'find_callers',
    title: 'Find the callers of a function',
    description: 'The functions that call a function (to depth 3), each with its call sites: who depends on it. Example: {"symbol": "Flask.dispatch_request", "depth": 2}',
  },
  input: CallsQuery,
  response: CallsResponse,
  run: (services, query, signal) => findCalls(services, query, 'incoming', signal),
  markdown: callsMarkdown,
});

export const calleesOperation = defineOperation({
  http: {
    path: '/symbols/callees',
    summary: 'Functions a function calls',
    description: [
      'What this function calls (outgoing calls): the language server\'s callHierarchy/outgoingCalls, each callee with the call sites in the calling function.',
      COMMON,
      'The syntactic callees are the call expressions in the function\'s body, each name resolved through the index (the same file first, then the same package, then the same language); a name nothing resolves is listed with `indexed: false`.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/callees?symbol=Flask.full_dispatch_request',
  },
  tool: {
    name: 'find_callees',
    title: 'Find the functions a function calls',
    description: 'The functions a function calls, with the call sites: what it depends on. Example: {"symbol": "Flask.full_dispatch_request"}',
  },
  input: CallsQuery,
  response: CallsResponse,
  run: (services, query, signal) => findCalls(services, query, 'outgoing', signal),
  markdown: callsMarkdown,
});
