import t from 'tap';
import type { OutlineNode, OutlineResponse } from '../../schemas/outline.js';
import type { ChildrenResponse } from '../../schemas/children.js';
import { childrenMarkdown, formatRange, outlineMarkdown } from '../../src/format/outline.js';
import { fenceLanguage } from '../../src/format/markdown.js';
import { range } from './fixtures.js';

const node = (name: string, kind: OutlineNode['kind'], line: number, children: OutlineNode[] = [], extra: Partial<OutlineNode> = {}): OutlineNode => ({
  name, kind, detail: null, line, column: 1, range: range(line, line + 2), selectionRange: range(line), children, ...extra,
});

const outline: OutlineResponse = {
  file: 'src/config.py',
  language: 'python',
  source: 'lsp',
  results: [
    node('Config', 'class', 29, [
      node('from_pyfile', 'method', 165, [], { detail: 'def from_pyfile(self,\n    filename)', symbolContent: '    def from_pyfile(self, filename):\n        return True' }),
      node('root_path', 'field', 40),
    ]),
    node('ConfigAttribute', 'class', 10),
  ],
  displayCodeFor: [{ query: 'from_pyfile', matches: 1 }, { query: 'nothing_here', matches: 0 }],
  elapsedMs: 3,
};

t.test('outline: the seed\'s nested list, code under the symbols asked for', async (t) => {
  const text = outlineMarkdown(outline);
  t.equal(text, [
    '# Outline of src/config.py',
    '',
    '- **Config** (`Class`) L29',
    '  - **from_pyfile** (`Method`) L165 — def from_pyfile(self, filename)',
    '    ```python',
    '        def from_pyfile(self, filename):',
    '            return True',
    '    ```',
    '  - **root_path** (`Field`) L40',
    '- **ConfigAttribute** (`Class`) L10',
    '',
    '_No symbol matched `nothing_here` in display_code_for._',
    '',
  ].join('\n'));
  t.notMatch(text, /elapsedMs|range/, 'no JSON noise: ranges and timings stay in the JSON');
});

t.test('outline of a file without symbols says so', async (t) => {
  t.match(outlineMarkdown({ ...outline, results: [], displayCodeFor: undefined }), /_No symbols\._\n$/);
});

const children: ChildrenResponse = {
  file: 'internal/Subject.ts',
  language: 'typescript',
  source: 'lsp',
  symbol: { name: 'Subject', kind: 'class', detail: null, line: 17, column: 14, range: range(17, 160), selectionRange: range(17) },
  depth: 2,
  results: [
    { name: 'observers', kind: 'property', detail: null, line: 23, column: 3, range: range(23), selectionRange: range(23), parent: 'Subject', depth: 1, hover: '```typescript\n(property) Subject<T>.observers: Observer<T>[]\n```' },
    { name: 'next', kind: 'method', detail: null, line: 59, column: 3, range: range(59, 71), selectionRange: range(59), parent: 'Subject', depth: 1, hover: null },
    { name: 'copy', kind: 'variable', detail: null, line: 63, column: 15, range: range(63), selectionRange: range(63), parent: 'next', depth: 2 },
  ],
  hover: { requested: true, skipped: false },
  elapsedMs: 5,
};

t.test('children: the seed\'s table, nested names indented, hover flattened into one cell', async (t) => {
  const text = childrenMarkdown(children);
  const lines = text.trimEnd().split('\n');
  t.equal(lines[0], '# Children of Subject (`Class`) in internal/Subject.ts:17 — depth 2, 3 symbols');
  t.equal(lines[2], '| NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO |');
  t.equal(lines[4], '| observers | Property | 23:1-23:2 | 23:1-23:2 | Subject | (property) Subject<T>.observers: Observer<T>[] |');
  t.equal(lines[5], '| next | Method | 59:1-71:2 | 59:1-59:2 | Subject |  |');
  t.equal(lines[6], '| copy | Variable | 63:1-63:2 | 63:1-63:2 | next |  |', 'depth 2: the parent names the method');
  t.equal(lines.length, 7, 'no other lines');
});

t.test('children says when hover was skipped, and why', async (t) => {
  const text = childrenMarkdown({ ...children, hover: { requested: true, skipped: true, reason: '300 children exceed hover.maxSymbols (100)' } });
  t.match(text, /^_Hover skipped: 300 children exceed hover\.maxSymbols \(100\)_$/m);
  t.match(childrenMarkdown({ ...children, results: [] }), /— depth 2, 0 symbols/);
  t.match(childrenMarkdown({ ...children, results: children.results.slice(0, 1) }), /1 symbol\n/, 'singular');
});

t.test('ranges and fence languages', async (t) => {
  t.equal(formatRange({ start: { line: 1, column: 2 }, end: { line: 3, column: 4 } }), '1:2-3:4');
  t.equal(fenceLanguage('cpp'), 'cpp');
  t.equal(fenceLanguage('klingon'), '', 'unknown languages get a bare fence');
});
