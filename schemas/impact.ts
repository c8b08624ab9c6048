/**
 * Schemas of what an agent asks before and after an edit: /symbols/impact (what may need a change if this
 * symbol changes) and POST /changes (what a diff touches and what it reaches), with their MCP tools.
 */
import { Type, type Static } from 'typebox';
import { FormatParam } from './common.js';
import { CallNode, CallSite } from './calls.js';
import { SymbolSelectorParams } from './hierarchy.js';
import { Envelope, IndexSymbol, Offset } from './symbols.js';

export const IMPACT_DEPTH_DEFAULT = 2;
export const IMPACT_DEPTH_MAX = 5;
export const IMPACT_LIMIT_DEFAULT = 50;
export const IMPACT_LIMIT_MAX = 200;
/** A unified diff as large as the HTTP body limit allows. */
export const DIFF_CHARS_MAX = 1024 * 1024;

const Depth = Type.Optional(Type.Integer({ minimum: 1, maximum: IMPACT_DEPTH_MAX, default: IMPACT_DEPTH_DEFAULT, description: `How far to follow: 1 = what uses the symbol directly; each level more adds the callers of what was found (default ${IMPACT_DEPTH_DEFAULT}, at most ${IMPACT_DEPTH_MAX})` }));
const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: IMPACT_LIMIT_MAX, default: IMPACT_LIMIT_DEFAULT, description: `Results per page (default ${IMPACT_LIMIT_DEFAULT}, at most ${IMPACT_LIMIT_MAX})` }));

export const ImpactQuery = Type.Object({
  ...SymbolSelectorParams,
  depth: Depth,
  limit: Limit,
  offset: Offset,
  format: FormatParam,
});
export type ImpactQuery = Static<typeof ImpactQuery>;

export const RelationSchema = Type.Union([Type.Literal('call'), Type.Literal('usage'), Type.Literal('inherits'), Type.Literal('overrides'), Type.Literal('implements')], {
  description: 'How it depends on what it was reached from: `call` (calls it), `usage` (refers to it otherwise: a type position, a read, an import, a function passed as a value), `inherits` (derives from the type), `overrides` / `implements` (overrides the method, implements the interface method)',
});
export type Relation = Static<typeof RelationSchema>;

const Precision = Type.Union([Type.Literal('semantic'), Type.Literal('syntactic')], { description: '`semantic`: a language server\'s answer; `syntactic`: names matched in the source or the index (same-named symbols are not told apart)' });

export const ImpactResult = Type.Object({
  symbol: CallNode,
  distance: Type.Integer({ description: '1 = depends on the symbol directly; 2 = on something at distance 1; ...' }),
  relation: RelationSchema,
  via: Type.Optional(Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }, { description: 'What it depends on, past distance 1 (one step nearer the symbol)' })),
  sites: Type.Array(CallSite, { description: 'Where it depends on it: the calls or references (at most 10; `sitesTotal` counts them all); none for an inheritor or an override, whose declaration is the site' }),
  sitesTotal: Type.Integer(),
  precision: Precision,
  test: Type.Optional(Type.String({ description: 'The test it is, named as its runner names it, when it is one (`Suite.Name`, `TestList`, `tests/test_x.py::test_y`)' })),
});
export type ImpactResult = Static<typeof ImpactResult>;

export const ImpactFile = Type.Object({
  file: Type.String(),
  distance: Type.Integer({ description: 'The nearest distance of a result in it' }),
  results: Type.Integer({ description: 'Results in it' }),
  test: Type.Boolean({ description: 'A test file by its language\'s conventions' }),
});
export type ImpactFile = Static<typeof ImpactFile>;

export const ImpactTest = Type.Object({
  name: Type.Union([Type.String(), Type.Null()], { description: 'The test as its runner names it (gtest `Suite.Name`, Go `TestX`, pytest `file::Class::test_x`, `describe > it`); null for a test file reached outside any test it names' }),
  file: Type.String(),
  line: Type.Union([Type.Integer(), Type.Null()]),
  distance: Type.Integer({ description: 'Of the result it is (or is in); 0 for a test the diff changes itself (POST /changes)' }),
  id: Type.Optional(Type.String({ description: 'The test function\'s symbol id, when the index holds it' })),
});
export type ImpactTest = Static<typeof ImpactTest>;

export const ImpactPart = Type.Object({
  relation: RelationSchema,
  operation: Type.String({ description: 'The operation the part comes from (find_callers, find_usages, find_inheritors, find_implementations, or a name search for a removed symbol)' }),
  precision: Precision,
  found: Type.Integer({ description: 'Results this part gave' }),
  reason: Type.Optional(Type.String({ description: 'Why it is syntactic or partial' })),
});
export type ImpactPart = Static<typeof ImpactPart>;

/** What impact and changes answers share past their results. */
const Reach = {
  precision: Type.Union([Type.Literal('semantic'), Type.Literal('syntactic'), Type.Literal('mixed')], { description: '`semantic` when every part came from a language server, `syntactic` when none did, else `mixed`: each result and each of `parts` says its own' }),
  parts: Type.Array(ImpactPart, { description: 'Each operation the answer was built on, with its precision' }),
  files: Type.Array(ImpactFile, { description: 'Each file holding a result, nearest first (at most 200; `filesTotal` counts them all)' }),
  filesTotal: Type.Integer(),
  tests: Type.Array(ImpactTest, { description: 'The tests among the results, by each language\'s conventions, nearest first (at most 200; `testsTotal` counts them all)' }),
  testsTotal: Type.Integer(),
  omitted: Type.Integer({ description: 'Symbols found but left out by a cap (callers per symbol, symbols expanded), said in `reason`' }),
};

export const ImpactResponse = Type.Object({
  symbol: IndexSymbol,
  depth: Type.Integer(),
  results: Type.Array(ImpactResult, { description: 'Nearest first; at one distance calls, then overrides and implementations, inheritors, usages' }),
  ...Envelope,
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index'), Type.Literal('both')], { description: '`lsp` when every part came from a language server, `index` when none did, else `both`' }),
  ...Reach,
});
export type ImpactResponse = Static<typeof ImpactResponse>;

// ---- POST /changes ----------------------------------------------------------------------------------

export const ChangesBody = Type.Object({
  diff: Type.Optional(Type.String({ maxLength: DIFF_CHARS_MAX, description: 'A unified diff (`git diff`, `diff -u`), paths relative to the workspace root (a/ and b/ prefixes taken off) or absolute inside it' })),
  base: Type.Optional(Type.String({ maxLength: 256, description: 'A git ref (`HEAD`, `main`, `HEAD~3`, a commit): the working tree against it, through `git diff`, untracked files included as added; the workspace must be a git repository' })),
  depth: Depth,
  limit: Limit,
  offset: Offset,
});

export const ChangesQuery = Type.Object({
  ...ChangesBody.properties,
  format: FormatParam,
});
export type ChangesQuery = Static<typeof ChangesQuery>;

export const ChangedSymbol = Type.Object({
  change: Type.Union([Type.Literal('added'), Type.Literal('modified'), Type.Literal('removed')], { description: '`added`: only on the new side; `removed`: only on the old side (read from the diff\'s old side); `modified`: on both, a changed line in its range' }),
  id: Type.Union([Type.String(), Type.Null()], { description: 'Its id in the index (for the other operations); null for a removed symbol or a file the index does not hold' }),
  name: Type.String(),
  qualifiedName: Type.String(),
  kind: Type.String(),
  file: Type.String({ description: 'The new side\'s path; the old one for a removed symbol of a deleted file' }),
  line: Type.Integer({ description: 'Where its name is, on the new side (the old side for a removed symbol)' }),
  column: Type.Integer(),
  signature: Type.String(),
  language: Type.String(),
  linesChanged: Type.Integer({ description: 'Changed lines in its range (added and removed)' }),
});
export type ChangedSymbol = Static<typeof ChangedSymbol>;

export const ChangedFile = Type.Object({
  file: Type.String(),
  status: Type.Union([Type.Literal('added'), Type.Literal('modified'), Type.Literal('deleted'), Type.Literal('renamed')]),
  oldFile: Type.Optional(Type.String({ description: 'The old path of a renamed file' })),
  linesAdded: Type.Integer(),
  linesRemoved: Type.Integer(),
  symbols: Type.Integer({ description: 'Changed symbols in it' }),
  indexed: Type.Boolean({ description: 'Whether the index holds the file (a deleted, ignored or unparsed file is not)' }),
  note: Type.Optional(Type.String({ description: 'What could not be read or matched, and what was done instead' })),
});
export type ChangedFile = Static<typeof ChangedFile>;

export const ChangeSource = Type.Object({ id: Type.Union([Type.String(), Type.Null()]), name: Type.String() });

export const ChangesResult = Type.Object({
  ...ImpactResult.properties,
  from: Type.Array(ChangeSource, { description: 'The changed symbols it is reached from (at most 5), nearest first' }),
});
export type ChangesResult = Static<typeof ChangesResult>;

export const ChangesResponse = Type.Object({
  diffSource: Type.Union([Type.Literal('body'), Type.Literal('git')], { description: '`body`: the diff sent; `git`: `git diff <base>` in the workspace' }),
  base: Type.Optional(Type.String()),
  changedFiles: Type.Array(ChangedFile),
  changed: Type.Array(ChangedSymbol, { description: 'Each symbol a changed line touches (the innermost: a method, not its class), by file and line (at most 500; `changedTotal` counts them all)' }),
  changedTotal: Type.Integer(),
  depth: Type.Integer(),
  results: Type.Array(ChangesResult, { description: 'The impact of the changed symbols, merged: nearest first, each symbol once per relation' }),
  ...Envelope,
  source: Type.Union([Type.Literal('lsp'), Type.Literal('index'), Type.Literal('both')]),
  ...Reach,
});
export type ChangesResponse = Static<typeof ChangesResponse>;
