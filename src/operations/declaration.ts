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
    description: 'A symbol\'s definitions and declarations with their code, in one call: read a function or class without opening its file. Example: {"symbol": "Flask.route", "include_body": true}',
  },
  input: DeclarationQuery,
  response: DeclarationResponse,
  run: (services, query) => findDeclaration(services, query),
  markdown: declarationMarkdown,
});
