import t from 'tap';
import { bareName } from '../../src/symbols/document-symbols.js';

t.test('names servers decorate become the index\'s bare names', async (t) => {
  const cases: Array<[string, { name: string; qualifier: string[] }]> = [
    // gopls: methods by receiver.
    ['(*DemoStruct).Value', { name: 'Value', qualifier: ['DemoStruct'] }],
    ['(List).Len', { name: 'Len', qualifier: ['List'] }],
    ['(*Map[K, V]).Load', { name: 'Load', qualifier: ['Map'] }],
    // clangd: definitions outside their class, by qualified name.
    ['TestPartResult::ExtractSummary', { name: 'ExtractSummary', qualifier: ['TestPartResult'] }],
    ['testing::internal::Helper::Run', { name: 'Run', qualifier: ['testing', 'internal', 'Helper'] }],
    ['HasNewFatalFailureHelper::~HasNewFatalFailureHelper', { name: '~HasNewFatalFailureHelper', qualifier: ['HasNewFatalFailureHelper'] }],
    ['Matrix<T, N>::at', { name: 'at', qualifier: ['Matrix'] }],
    ['Outer<std::map<int, int>>::Inner::get', { name: 'get', qualifier: ['Outer', 'Inner'] }],
    ['Foo::operator==', { name: 'operator==', qualifier: ['Foo'] }],
    ['Foo::operator<<', { name: 'operator<<', qualifier: ['Foo'] }],
    ['Foo::operator()', { name: 'operator()', qualifier: ['Foo'] }],
    ['Foo::operator std::string', { name: 'operator std::string', qualifier: ['Foo'] }],
    // clangd: template specializations with their arguments.
    ['FormatForComparison<char *, OtherOperand>', { name: 'FormatForComparison', qualifier: [] }],
  ];
  for (const [written, bare] of cases) t.same(bareName(written), bare, written);
});

t.test('bare names and names it does not recognize stay as they are', async (t) => {
  for (const written of [
    'Value', '__init__', 'operator<<', 'operator->', '~Widget', 'constructor',
    // The TypeScript server's names for what has no name of its own.
    '<function>', '"quoted::key"', '[Symbol.iterator]', 'describe() callback',
    // clangd's unnamed scopes.
    '(anonymous namespace)', '(anonymous struct)::x', '::global', 'Foo::',
  ]) {
    t.equal(bareName(written), undefined, written);
  }
});
