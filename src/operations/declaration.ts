import { DeclarationQuery, DeclarationResponse } from '../../schemas/navigation.js';
import { declarationMarkdown } from '../format/navigation.js';
import { findDeclaration } from '../symbols/declaration.js';
import { defineOperation } from './operation.js';

export const declarationOperation = defineOperation({
  http: {
    path: '/symbols/declaration',
    summary: 'Definitions and declarations of a symbol, with their code',
    description: [
      'Every definition and declaration of the symbols `symbol` names (short or qualified: `SetUp`, `testing::Test::SetUp`, `Config.from_object`), or of `id`, narrowed by containingType, kind, package, language.',
      'One symbol\'s places stay together, definitions first: a C++ method declared in its class and defined out of line gives both places. Each place carries `context` (definition|declaration) and a `snippet` read from the file: context_lines (default 4, at most 50) around the name, or with include_body=true the whole declaration, cut after 400 lines (truncated, omittedLines).',
      'Forward declarations are counted in forwardDeclarations and appended with include_forward_declarations=true. Answered from the index, no language server needed. No match → 404 `Symbol \'<name>\' not found`; neither symbol nor id → 400.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404],
    example: '/symbols/declaration?symbol=testing::Test::SetUp&context_lines=2',
  },
  tool: {
    name: 'find_declaration',
    title: 'Jump to a symbol\'s definition and declarations, with code',
    description: [
      'Where a symbol is defined and declared, with the code, in one call: every definition and declaration of the classes, functions, methods or fields a name matches, definitions first, each with a snippet of the source.',
      'Use it instead of grepping and opening files when you know a name (from code, a stack trace, an earlier answer): a C++ method gives its in-class declaration in the header and its out-of-line definition in the .cpp.',
      'Qualify or narrow an ambiguous name (`Subject.next`, containingType, kind, package) or pass an `id` from another answer; include_body=true returns the whole body (up to 400 lines) instead of context_lines around the name.',
      'Example: {"symbol": "UnitTest::Run", "include_body": true}',
    ].join(' '),
  },
  input: DeclarationQuery,
  response: DeclarationResponse,
  run: (services, query) => findDeclaration(services, query),
  markdown: declarationMarkdown,
});
