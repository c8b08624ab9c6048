import t from 'tap';
import type { SymbolSearchResponse } from '../../schemas/symbols.js';
import type { PackageSymbolsResponse, PackagesResponse } from '../../schemas/packages.js';
import { packageSymbolsMarkdown, packagesMarkdown, symbolSearchMarkdown } from '../../src/format/symbols.js';
import { indexSymbol } from './fixtures.js';

const envelope = { limit: 2, offset: 0, totalMatches: 1204, truncated: true, forwardDeclarations: 3, source: 'index' as const, elapsedMs: 1 };

const search: SymbolSearchResponse = {
  query: 'Widget',
  results: [
    indexSymbol({ name: 'Widget', qualifiedName: 'ui::Widget', kind: 'class', file: 'src/ui/widget.h', line: 12 }),
    indexSymbol({ name: 'draw', qualifiedName: 'ui::Widget::draw', kind: 'method', file: 'src/ui/widget.h', line: 30, definition: false }),
  ],
  ...envelope,
};

t.test('search: Fathom\'s table, truncation as "showing N of M", forward declarations skipped', async (t) => {
  const text = symbolSearchMarkdown(search);
  t.equal(text, [
    '# Symbols matching `Widget`',
    '',
    'Showing 2 of 1,204 matches (truncated: raise offset for more).',
    '3 forward declarations skipped (include_forward_declarations=true lists them).',
    '',
    '| Name | Kind | File | Line |',
    '|---|---|---|---|',
    '| ui::Widget | Class | src/ui/widget.h | 12 |',
    '| ui::Widget::draw | Method (declaration) | src/ui/widget.h | 30 |',
    '',
  ].join('\n'));
});

t.test('search: a complete answer gives the count; paging gives the range; partial says why', async (t) => {
  const complete = symbolSearchMarkdown({ ...search, totalMatches: 2, truncated: false, forwardDeclarations: 0 });
  t.match(complete, /^2 matches\.$/m);
  t.notMatch(complete, /forward declaration/);
  t.match(symbolSearchMarkdown({ ...search, offset: 50 }), /^Showing 51-52 of 1,204 matches/m);
  t.match(symbolSearchMarkdown({ ...search, partial: true, reason: 'index building: 120 of 3,000 files' }), /^\*\*Partial:\*\* index building: 120 of 3,000 files\.$/m);
  const forward = indexSymbol({ name: 'Widget', qualifiedName: 'ui::Widget', kind: 'class', file: 'src/ui/fwd.h', line: 3, forwardDeclaration: true, definition: false });
  const listed = symbolSearchMarkdown({ ...search, results: [...search.results, forward] });
  t.match(listed, /3 forward declarations listed last\./);
  t.match(listed, /\| ui::Widget \| Class \(forward\) \| src\/ui\/fwd\.h \| 3 \|/);
  const none = symbolSearchMarkdown({ ...search, results: [], totalMatches: 0, truncated: false, forwardDeclarations: 0 });
  t.notMatch(none, /\| Name/, 'no empty table');
});

t.test('packages and package symbols', async (t) => {
  const packages: PackagesResponse = {
    results: [
      { name: '@scope/core', path: 'packages/core', manifest: 'package.json', language: 'typescript', symbols: 12345, files: 80, external: false },
      { name: 'engine', path: '/opt/engine', manifest: null, language: null, symbols: 7, files: 1, external: true },
    ],
    ...envelope, totalMatches: 2, truncated: false, forwardDeclarations: 0,
  };
  const text = packagesMarkdown(packages);
  t.match(text, /^2 packages\.$/m);
  t.match(text, /^\| @scope\/core \| packages\/core \| typescript \| 12,345 \| package\.json \|$/m);
  t.match(text, /^\| engine \(external\) \| \/opt\/engine \|  \| 7 \| \(directory\) \|$/m);

  const symbols: PackageSymbolsResponse = { package: '@scope/core', ...search, results: search.results };
  const listing = packageSymbolsMarkdown(symbols);
  t.match(listing, /^# Symbols of package `@scope\/core`/);
  t.match(listing, /^Showing 2 of 1,204 symbols \(truncated: raise offset for more\)\.$/m);
});
