import { StatementsQuery, StatementsResponse } from '../../schemas/statements.js';
import { statementsMarkdown } from '../format/statements.js';
import { searchStatements } from '../symbols/statements.js';
import { defineOperation } from './operation.js';

const GRAMMAR = [
  'Path grammar: `path := step+`; `step := (\'/\' | \'//\') test predicate*` (`/` the nearest mapped descendants, called children; `//` any depth below);',
  '`test` is a short name (if while for foreach do switch case try catch block expression local return throw break continue call assignment method function class lambda), `statement` (any statement) or `*`;',
  '`predicate := \'[\' expr \']\'` with `expr := and (\'or\' and)*`, `and := unary (\'and\' unary)*`, `unary := not(expr) | (expr) | primary`;',
  '`primary` is a position `2` (among the step\'s matches under one parent, as in XPath), a name `Main` or `\'Main\'` (declared name of a method/function/class, callee of a call, bound name of a lambda or local),',
  '`@contains=\'text\'`, `@name=\'n\'`, `@type=\'grammar_node_type\'`, or `@word` (the word stands in the node\'s head: `@async`, `@static`, `@staticmethod` for a decorator). A malformed pattern is a 400 naming the character position and what was expected there.',
].join(' ');

export const statementsOperation = defineOperation({
  http: {
    path: '/statements',
    summary: 'Search statements by text, regex or XPath-like path',
    description: [
      'Statements of the workspace\'s C, C++, C#, TypeScript/TSX/JavaScript, Python, Go, Java and Rust files, through tree-sitter.',
      '`type=text` (default) and `type=regex`: every statement whose source matches, parents and children alike (an `if` whose body holds the match, and the matching statement inside it), in document order, parents first.',
      '`type=path`: nodes selected by a path such as `//method[Main]//call[WriteLine]` or `//class[UserService]/method`.',
      GRAMMAR,
      'Narrow with file, package, language, or symbol/id (a method, function or class, resolved as the navigation endpoints resolve names; every definition of the name is searched, up to 50; with a symbol a path starts at it: `/if` its direct ifs).',
      'Each result: id, path (`/package/file-in-package/Class/method/if[1]/expression[2]`), type {node, short}, depth (0 = a direct statement of the enclosing method/function/lambda body; each enclosing statement adds one), file, line, column, code (cut at max_code_chars, then truncated: true).',
      'Only files whose text can match are parsed; trees are cached. Past a full page the count stops after 1,000 more matches or 250 ms (countsCapped: totalMatches is a lower bound). A regex running longer than 3 s is stopped with a 400, and only that query fails: each regex query runs on a worker thread of its own from a small pool; one that waits more than 6 s in all for a free worker, while other queries hold them all, is a 503 with Retry-After.',
    ].join(' '),
    tags: ['statements'],
    errors: [400, 404, 409],
    example: '/statements?query=%2F%2Fmethod%5Bdispatch_request%5D%2F%2Fcall&type=path&package=flask',
  },
  tool: {
    name: 'search_statements',
    title: 'Search statements by text, regex or path',
    description: 'Statements matching a text, a regex or a path over the syntax tree (`//method[Main]//call`, `//if[@contains=\'err\']`), with their code: code patterns grep cannot express. Example: {"query": "//class[UserService]/method", "type": "path"}',
  },
  input: StatementsQuery,
  response: StatementsResponse,
  run: (services, query, signal) => searchStatements(services, query, signal),
  markdown: statementsMarkdown,
});
