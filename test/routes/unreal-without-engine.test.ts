/**
 * An Unreal game module checked out without the engine (test/fixtures/unreal), served by the real clangd: its
 * files include CoreMinimal.h and the engine's headers, which are nowhere, so clangd cannot parse them (UCLASS,
 * GENERATED_BODY, UPROPERTY, MYGAME_API, int32, AActor unknown). Where its answers are evidently poor plumb falls
 * back to, or merges with, the syntactic answer and says so; where a file parses (MyMath), the server's answer
 * stands. One app and one clangd for the whole file, asked through HTTP and MCP.
 */
import path from 'node:path';
import t from 'tap';
import type { CallsResponse } from '../../schemas/calls.js';
import type { ChildrenResponse } from '../../schemas/children.js';
import type { OutlineNode, OutlineResponse } from '../../schemas/outline.js';
import type { UsagesResponse } from '../../schemas/usages.js';
import { REPO, getJson, startApp } from '../helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

const ROOT = path.join(REPO, 'test/fixtures/unreal');
const HEADER = 'Source/MyGame/Public/MyComponent.h';
const SOURCE = 'Source/MyGame/Private/MyComponent.cpp';
const ACTOR = 'Source/MyGame/Private/MyActor.cpp';

const app = await startApp(t, ROOT);
await indexReady(app, 60_000);
const { client } = await connectHttp(t, app);

function names(nodes: OutlineNode[]): string[] {
  return nodes.flatMap((node) => [node.name, ...names(node.children)]);
}

t.test('/outline of a header clangd misreads (the class as a variable, UCLASS as a function): the index\'s tree, saying why', async (t) => {
  const { status, body } = await getJson<OutlineResponse>(app, `/outline?file=${HEADER}`);
  t.equal(status, 200);
  t.equal(body.source, 'index');
  t.match(body.reason, /C\/C\+\+ server misread .*MyComponent\.h: it reports class UMyComponent \(line 10\) as a variable/);
  const [component, row] = body.results;
  t.match(component, { name: 'UMyComponent', kind: 'class', line: 10 });
  t.same(component.children.map((c) => `${c.kind} ${c.name}`), [
    'constructor UMyComponent', 'method FindMyComponent', 'method AddScore', 'method OnScoreTick', 'field Score',
    // Inside `#if WITH_EDITOR` in the class body, and after it.
    'field bShowInEditor', 'method PostEditChangeProperty', 'field OwnerName',
  ]);
  t.match(row, { name: 'FMyScoreRow', kind: 'struct', children: [{ name: 'Points', kind: 'field' }] });
  const all = names(body.results);
  for (const macro of ['UCLASS', 'USTRUCT', 'GENERATED_BODY', 'UPROPERTY', 'UFUNCTION', 'MYGAME_API', 'BlueprintType']) t.notOk(all.includes(macro), `no ${macro}`);

  const tool = await call(client, 'symbol_outline', { file: HEADER });
  t.notOk(tool.isError);
  t.match(textOf(tool), /From the index: the C\/C\+\+ server misread/);
  t.match(textOf(tool), /\*\*UMyComponent\*\* \(`Class`\)/);
  t.same(names(structured<OutlineResponse>(tool).results), all, 'MCP gives the same tree');
});

t.test('/outline of a source clangd gives nothing for: the index\'s tree, every function after the #if in the constructor\'s initializer list', async (t) => {
  const { status, body } = await getJson<OutlineResponse>(app, `/outline?file=${SOURCE}&display_code_for=UMyComponent::AddScore`);
  t.equal(status, 200);
  t.equal(body.source, 'index');
  t.match(body.reason, /gave no symbols for .*MyComponent\.cpp, where the index holds 5/);
  t.same(body.results.map((n) => `${n.kind} ${n.name}`), [
    'constructor UMyComponent', 'method FindMyComponent', 'method AddScore', 'method OnScoreTick', 'method PostEditChangeProperty',
  ]);
  t.match(body.displayCodeFor, [{ query: 'UMyComponent.AddScore', matches: 1 }], 'an out-of-line method is found by its class');
  t.match(body.results[2].symbolContent, /Score \+= Delta;/);
});

t.test('/children of the misread class: the index\'s members, through HTTP and MCP', async (t) => {
  const { status, body } = await getJson<ChildrenResponse>(app, `/children?file=${HEADER}&line=10&column=20`);
  t.equal(status, 200);
  t.equal(body.source, 'index');
  t.match(body.reason, /reports class UMyComponent/);
  t.match(body.symbol, { name: 'UMyComponent', kind: 'class' });
  t.same(body.results.map((c) => c.name), ['UMyComponent', 'FindMyComponent', 'AddScore', 'OnScoreTick', 'Score', 'bShowInEditor', 'PostEditChangeProperty', 'OwnerName']);
  const tool = await call(client, 'get_symbol_children', { file: HEADER, line: 10, column: 20 });
  t.notOk(tool.isError);
  t.equal(structured<ChildrenResponse>(tool).source, 'index');
  t.match(textOf(tool), /From the index: the C\/C\+\+ server misread/);
});

t.test('usages where clangd cannot parse the file: its references merged with the name\'s matches, marked syntactic, saying why', async (t) => {
  const { status, body } = await getJson<UsagesResponse>(app, '/symbols/usages?symbol=UMyComponent::FindMyComponent');
  t.equal(status, 200);
  t.equal(body.precision, 'syntactic', 'not passed on as semantic');
  t.equal(body.source, 'both');
  t.match(body.reason, /could not parse .*MyComponent\.cpp \(\d+ errors? such as: .*'CoreMinimal\.h' file not found/);
  t.match(body.server, { language: 'C/C++', request: 'textDocument/references', reason: /could not parse/ });
  t.match(body.results, [{ file: ACTOR, line: 20, text: 'Component = UMyComponent::FindMyComponent(this);', usageKind: 'call', enclosingSymbol: { qualifiedName: 'AMyActor::BeginPlay' } }]);
  t.equal(body.totalMatches, 1, 'its declaration and definition are no usages');

  const pointer = await getJson<UsagesResponse>(app, '/symbols/usages?symbol=OnScoreTick');
  t.same(pointer.body.results.map((u) => `${u.file}:${u.line}`), [`${ACTOR}:30`, `${ACTOR}:31`], '`&Type::StaticFn` and `Type::StaticFn` as an argument');

  const tool = await call(client, 'find_usages', { symbol: 'UMyComponent::FindMyComponent' });
  t.notOk(tool.isError);
  const usages = structured<UsagesResponse>(tool);
  t.equal(usages.precision, 'syntactic');
  t.equal(usages.results.length, 1);
  t.match(textOf(tool), /could not parse/);
});

t.test('callers written `Type::Function(...)`, `ns::f(...)`, `obj->f()` and `&Type::StaticFn`, clangd\'s answer merged or replaced', async (t) => {
  const callers = async (symbol: string): Promise<CallsResponse> => {
    const answer = await getJson<CallsResponse>(app, `/symbols/callers?symbol=${symbol}`);
    t.equal(answer.status, 200, symbol);
    t.equal(answer.body.precision, 'syntactic', `${symbol}: syntactic`);
    t.match(answer.body.reason, /Syntactic: /);
    return answer.body;
  };
  const sites = (answer: CallsResponse): string[] => answer.results.flatMap((r) => r.calls.map((c) => `${'qualifiedName' in r.symbol ? r.symbol.qualifiedName : r.symbol.name} ${c.file}:${c.line}`));

  t.same(sites(await callers('UMyComponent::FindMyComponent')), [`AMyActor::BeginPlay ${ACTOR}:20`]);
  t.same(sites(await callers('MyGame::Scoring::Bonus')), [`AMyActor::Reward ${ACTOR}:28`]);
  t.same(sites(await callers('UMyComponent::AddScore')).sort(), [`AMyActor::Reward ${ACTOR}:28`, `UMyComponent::OnScoreTick ${SOURCE}:26`]);
  t.same(sites(await callers('UMyComponent::OnScoreTick')), [`AMyActor::Reward ${ACTOR}:30`, `AMyActor::Reward ${ACTOR}:31`]);

  const tool = await call(client, 'find_callers', { symbol: 'UMyComponent::FindMyComponent' });
  t.notOk(tool.isError);
  t.match(structured<CallsResponse>(tool), { precision: 'syntactic', results: [{ symbol: { qualifiedName: 'AMyActor::BeginPlay' } }] });
});

t.test('where the file parses (plain C++ beside the module), clangd\'s answers stand', async (t) => {
  const twice = await getJson<UsagesResponse>(app, '/symbols/usages?symbol=MyMath::Twice');
  t.equal(twice.status, 200);
  t.equal(twice.body.precision, 'semantic');
  t.equal(twice.body.source, 'lsp');
  t.same(twice.body.results.map((u) => `${u.line}:${u.column}`), ['12:10', '12:16']);
  // Nothing merged and no parse failure said; at most that clangd was still indexing (its background index on a fast machine).
  t.match(twice.body.reason ?? '', /^(|The \S+ server was still indexing.*)$/, 'clangd\'s answer, not merged');

  // No references, and none in the source either: the empty answer stands, without a word.
  const unused = await getJson<UsagesResponse>(app, '/symbols/usages?symbol=MyMath::Unused');
  t.equal(unused.body.precision, 'semantic');
  t.equal(unused.body.totalMatches, 0);
  t.match(unused.body.reason ?? '', /^(|The \S+ server was still indexing.*)$/, 'the empty answer stands, nothing said but indexing');

  const outline = await getJson<OutlineResponse>(app, '/outline?file=Source/MyGame/Private/MyMath.cpp');
  t.equal(outline.body.source, 'lsp');
  t.notOk(outline.body.reason);
  t.match(outline.body.results, [{ name: 'MyMath', kind: 'namespace' }]);

  const callers = await getJson<CallsResponse>(app, '/symbols/callers?symbol=MyMath::Twice');
  t.equal(callers.body.precision, 'semantic');
  t.match(callers.body.results, [{ symbol: { name: 'Quad' } }]);
});
