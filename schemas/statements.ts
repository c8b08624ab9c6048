import { Type, type Static } from 'typebox';
import { FormatParam } from './common.js';
import { Envelope, LanguageSchema, Offset } from './symbols.js';

export const STATEMENTS_LIMIT_DEFAULT = 50;
export const STATEMENTS_LIMIT_MAX = 500;

export const SHORT_TYPE_NAMES = 'if while for foreach do switch case try catch block expression local return throw break continue call assignment method function class lambda';

export const StatementsQuery = Type.Object({
  query: Type.String({ maxLength: 2000, description: 'What to find. `text`: a piece of source text (case-sensitive unless ignore_case=true). `regex`: a JavaScript regular expression. `path`: a path over statements with short node names, such as `//method[Main]//call[WriteLine]`, `//class[UserService]/method`, `//if[@contains=\'null\']`, `//function[@async]`' }),
  type: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('regex'), Type.Literal('path')], { default: 'text', description: '`text` (default), `regex` or `path`' })),
  file: Type.Optional(Type.String({ minLength: 1, description: 'Only this file (root-relative with /, or absolute inside the root)' })),
  symbol: Type.Optional(Type.String({ maxLength: 500, description: 'Only inside this method, function or class (short or qualified name; every definition of the name is searched, up to 50)' })),
  id: Type.Optional(Type.String({ maxLength: 64, description: 'Only inside the symbol with this id (from search_symbols and the like)' })),
  containingType: Type.Optional(Type.String({ description: 'Narrows `symbol` to members of this type' })),
  language: Type.Optional(LanguageSchema),
  package: Type.Optional(Type.String({ description: 'Only files of this package (exact, else a unique case-insensitive match); see /packages' })),
  scope: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('all')], { default: 'user', description: '`user` (default): workspace files; `all`: extra roots too' })),
  ignore_case: Type.Optional(Type.Boolean({ default: false, description: 'Text and regex queries ignore case' })),
  max_code_chars: Type.Optional(Type.Integer({ minimum: 20, maximum: 100000, description: 'Cut each result\'s code at this many characters (default: the statements.maxCodeChars setting, 400)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: STATEMENTS_LIMIT_MAX, default: STATEMENTS_LIMIT_DEFAULT, description: `Results per page (default ${STATEMENTS_LIMIT_DEFAULT}, at most ${STATEMENTS_LIMIT_MAX})` })),
  offset: Offset,
  format: FormatParam,
});
export type StatementsQuery = Static<typeof StatementsQuery>;

export const StatementResult = Type.Object({
  id: Type.String({ description: 'Stable while the file is unchanged: a hash of file and path' }),
  path: Type.String({ description: '`/package/file-in-package/Class/method/if[1]/expression[2]`: named methods, functions and classes by name, everything else as short type and 1-based position among the siblings of that short type' }),
  type: Type.Object({
    node: Type.String({ description: 'The grammar\'s node type (`if_statement`, `for_in_clause`...)' }),
    short: Type.String({ description: `Short name: ${SHORT_TYPE_NAMES}` }),
  }),
  shortType: Type.String({ description: 'Same as type.short' }),
  depth: Type.Integer({ description: '0 = a direct statement of the enclosing method/function/lambda body (or class body, or file); each enclosing statement adds one' }),
  file: Type.String({ description: 'Root-relative with /; absolute for files of an extra root' }),
  line: Type.Integer({ description: '1-based' }),
  column: Type.Integer({ description: '1-based, UTF-16 code units' }),
  endLine: Type.Integer({ description: 'Last line, 1-based' }),
  code: Type.String({ description: 'The node\'s source, cut at max_code_chars' }),
  truncated: Type.Optional(Type.Boolean({ description: 'true when code was cut' })),
  language: LanguageSchema,
});
export type StatementResult = Static<typeof StatementResult>;

export const StatementsResponse = Type.Object({
  query: Type.String(),
  type: Type.String(),
  results: Type.Array(StatementResult),
  ...Envelope,
  countsCapped: Type.Optional(Type.Boolean({ description: 'true when counting stopped before every file was searched (the page was full and the count bound or time budget reached): totalMatches is then a lower bound and truncated is true' })),
  filesSearched: Type.Integer({ description: 'Files whose text was tested' }),
  filesParsed: Type.Integer({ description: 'Files parsed (or taken from the tree cache) because their text could match' }),
  symbols: Type.Optional(Type.Array(Type.Object({ id: Type.String(), qualifiedName: Type.String(), kind: Type.String(), file: Type.String(), line: Type.Integer() }), { description: 'The definitions searched inside, when symbol or id narrowed the search' })),
  incompleteFiles: Type.Optional(Type.Array(Type.String(), { description: 'Files with syntax errors or cut parses among those searched: their trees may miss statements' })),
  filesSkipped: Type.Optional(Type.Integer({ description: 'Files in scope whose text was not searched (larger than the 64 MB the index parses, binary, removed, or leading outside the workspace through a link); the first 20 are in skippedFiles' })),
  skippedFiles: Type.Optional(Type.Array(Type.Object({
    file: Type.String(),
    reason: Type.Union([Type.Literal('too_large'), Type.Literal('binary'), Type.Literal('outside_root'), Type.Literal('not_found'), Type.Literal('not_a_file'), Type.Literal('unreadable')], { description: '`too_large` (over the 64 MB the index parses; /status lists it too), `binary`, `outside_root` (a link leading outside the workspace), `not_found` (removed since it was indexed), `not_a_file`, `unreadable`' }),
    message: Type.String(),
  }), { description: 'Up to 20 of the files not searched, each with why' })),
});
export type StatementsResponse = Static<typeof StatementsResponse>;
