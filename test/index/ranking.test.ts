import t from 'tap';
import { camelHumps, camelRegex, firstHumpPrefix, fuzzyMatches, fuzzyPattern, humpSegments, humpsOf, parseQuery, prefixEnd, queryHumps, rankOf } from '../../src/index/ranking.js';
import { qualifierMatches } from './helpers.js';

t.test('humps are the initials of CamelCase, snake_case and capital runs', async (t) => {
  t.equal(humpsOf('FMyPlayerController'), 'fmpc');
  t.equal(humpsOf('get_player_name'), 'gpn');
  t.equal(humpsOf('XMLHttpRequest'), 'xhr');
  t.equal(humpsOf('MAX_VALUE'), 'mv');
  t.equal(humpsOf('parseHTML5Doc'), 'phd');
  t.equal(humpsOf('_private'), 'p');
  t.equal(humpsOf('operator=='), 'o');
});

t.test('fuzzy: query humps start the name\'s humps in order, the first one first', async (t) => {
  t.equal(fuzzyPattern('FPC'), 'f%p%c%');
  t.equal(fuzzyPattern('ParseInt'), 'p%i%');
  t.equal(fuzzyPattern('F'), undefined, 'one letter is a prefix query, not an abbreviation');
  t.equal(fuzzyPattern('Matcher'), undefined, 'one hump is a prefix query');
  t.equal(fuzzyPattern('a.b'), undefined);
  t.same(humpSegments('FMyPlayerController'), ['f', 'my', 'player', 'controller']);
  t.same(queryHumps('fpc'), ['f', 'p', 'c'], 'a short all-lower-case abbreviation is initials');
  t.same(queryHumps('printf'), ['printf'], 'a longer lower-case query is a word');
  t.equal(fuzzyPattern('printf'), undefined);
  t.ok(fuzzyMatches('FMyPlayerController', 'FPC'), 'FPC finds FMyPlayerController (skipping My)');
  t.ok(fuzzyMatches('FMyPlayerController', 'fmpc'));
  t.ok(fuzzyMatches('FMyPlayerController', 'FPlayerCont'));
  t.ok(fuzzyMatches('parse_int_list', 'ParseInt'));
  t.notOk(fuzzyMatches('PyInit', 'ParseInt'), 'humps must start with the query\'s humps, not just their initials');
  t.notOk(fuzzyMatches('FMyPlayerController', 'PC'), 'the first hump must match');
  t.notOk(fuzzyMatches('FMyPlayerController', 'FCP'), 'order matters');
});

t.test('CamelCase queries may mix whole words and initials: a capital run is the word or its initials', async (t) => {
  t.same(camelHumps('UMyASC'), [{ text: 'u', initials: false }, { text: 'my', initials: false }, { text: 'asc', initials: true }]);
  t.equal(fuzzyPattern('UMyASC'), 'u%m%a%');
  t.ok(fuzzyMatches('UMyAbilitySystemComponent', 'UMyASC'), 'UMyASC finds UMyAbilitySystemComponent');
  t.ok(fuzzyMatches('UMyASCProxy', 'UMyASC'), 'and a name holding the run as a word');
  t.ok(fuzzyMatches('UMyAbilitySystemComponent', 'UASComp'), 'initials, then a word');
  t.ok(fuzzyMatches('GetHTTPResponseCode', 'GetHTTPCode'), 'a run is still a word');
  t.ok(fuzzyMatches('ASCManager', 'ASCMan'));
  t.ok(fuzzyMatches('AbilitySystemComponentManager', 'ASCMan'), 'a leading run as initials');
  t.notOk(fuzzyMatches('UMyAbilityComponent', 'UMyASC'), 'every initial must start a hump');
  t.notOk(fuzzyMatches('UMyAbilitySystemComponent', 'UMyACS'), 'initials in order');
  t.notOk(fuzzyMatches('MyAbilitySystemComponent', 'UMyASC'), 'the first hump still starts the name');
  t.equal(firstHumpPrefix(camelHumps('ASCMan')), 'a', 'a leading run may be initials: the name starts with its first letter');
  t.equal(firstHumpPrefix(camelHumps('ParseInt')), 'parse');
  t.same(queryHumps('UMyASC'), ['u', 'my', 'asc']);
});

t.test("PostgreSQL's CamelCase regex over hump segments holds exactly when fuzzyMatches does", async (t) => {
  const names = [
    'UMyAbilitySystemComponent', 'UMyASCProxy', 'UMyAbilityComponent', 'GetHTTPResponseCode', 'GetHttpTransportCode', 'ASCManager',
    'AbilitySystemComponentManager', 'FMyPlayerController', 'parse_int_list', 'parseInteger', 'PyInit', 'XMLHttpRequest', 'getJSONObject',
    'get_json_body', 'UMyASC', 'UMy_A_S_C', 'MyAbilitySystemComponent', 'TestPartResult', 'HTML5Parser', 'a1b2', 'AAA', 'aXbYcZ',
  ];
  const queries = ['UMyASC', 'UMyACS', 'UASComp', 'GetHTTPCode', 'ASCMan', 'FPC', 'fmpc', 'FPlayerCont', 'ParseInt', 'XMLHR', 'XHR', 'getJSON', 'TestPR', 'HTML5P', 'AAA', 'aXYZ', 'PI'];
  for (const query of queries) {
    const humps = camelHumps(query);
    if (humps.length < 2) continue;
    const regex = new RegExp(camelRegex(humps));
    for (const name of names) t.equal(regex.test(humpSegments(name).join(' ')), fuzzyMatches(name, query), `${query} ~ ${name}`);
  }
});

t.test('qualified queries split on ::, . and # and match on separator boundaries', async (t) => {
  t.same(parseQuery('leveldb::Iterator'), { name: 'Iterator', qualifier: 'leveldb' });
  t.same(parseQuery('Outer.Inner.method'), { name: 'method', qualifier: 'Outer.Inner' });
  t.same(parseQuery('  BeginPlay '), { name: 'BeginPlay' });
  t.same(parseQuery('Foo::'), { name: 'Foo' }, 'a trailing separator is not a qualifier');
  t.same(parseQuery('testing::internal::ReturnAction::operator OnceAction<U(Args...)>'), { name: 'operator OnceAction<U(Args...)>', qualifier: 'testing.internal.ReturnAction' }, 'separators inside brackets belong to the name');
  t.same(parseQuery('ns::Outer<a::B>::method'), { name: 'method', qualifier: 'ns.Outer<a.B>' });
  t.same(parseQuery('pkg\\mod#Class.method'), { name: 'method', qualifier: 'pkg.mod.Class' });
  t.ok(qualifierMatches('leveldb::Iterator', 'Iterator', 'leveldb'));
  t.ok(qualifierMatches('ns::leveldb::Iterator', 'Iterator', 'leveldb'));
  t.notOk(qualifierMatches('myleveldb::Iterator', 'Iterator', 'leveldb'), 'not in the middle of a name');
  t.ok(qualifierMatches('pkg.module.Class', 'Class', 'module'));
  t.ok(qualifierMatches('AMyActor::BeginPlay', 'BeginPlay', 'AMyActor'));
});

t.test('within a tier: user before external, definitions before declarations', async (t) => {
  const order = [rankOf(false, true), rankOf(false, false), rankOf(true, true), rankOf(true, false)];
  t.same(order, [...order].sort((a, b) => a - b));
  t.equal(new Set(order).size, 4);
  // SQLite compares UTF-8 bytes: every string starting with the prefix sorts below its end.
  const below = (a: string, b: string): boolean => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;
  t.ok(below('abc\u{FFFF}', prefixEnd('abc')) && below('abc\u{10FFFE}', prefixEnd('abc')) && below(prefixEnd('abc'), 'abd'));
});
