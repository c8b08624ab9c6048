/**
 * /symbols/context on real code with real servers: a Go function (its code, callers, callees, usages and the
 * TestX functions reaching it) and a Go type (its members) in container/list with gopls; an rxjs class (its
 * base, members, inheritors and their overrides) with the TypeScript server; markdown and MCP.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { ContextResponse } from '../../schemas/context.js';
import type { ImpactResult } from '../../schemas/impact.js';
import { corpusPath, requireCorpora } from '../corpora.js';
import { getJson, RXJS_SRC, startApp, tempDir } from '../helpers.js';
import { call, connectHttp, structured, textOf } from '../mcp/helpers.js';
import { indexReady } from '../wait.js';

function names(results: ImpactResult[]): string[] {
  return results.map((r) => ('qualifiedName' in r.symbol ? r.symbol.qualifiedName : r.symbol.name));
}

t.test('Go (container/list with gopls): a function and a type whole', async (t) => {
  if (!requireCorpora(t, 'go')) return;
  const root = tempDir(t, 'plumb-context-');
  cpSync(path.join(corpusPath('go'), 'src', 'container', 'list'), root, { recursive: true });
  writeFileSync(path.join(root, 'go.mod'), 'module example.com/list\n\ngo 1.19\n');
  for (const name of readdirSync(root).filter((n) => n.endsWith('.go'))) {
    const file = path.join(root, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"container\/list"/g, '"example.com/list"'));
  }
  const app = await startApp(t, root, { index: { watch: false } });
  await indexReady(app);

  const { status, body } = await getJson<ContextResponse>(app, '/symbols/context?symbol=insertValue');
  t.equal(status, 200);
  t.match(body.symbol, { qualifiedName: 'List.insertValue', kind: 'method' });
  t.equal(body.placesTotal, 1);
  t.match(body.places[0], { context: 'definition', file: 'list.go', snippet: { text: /^func \(l \*List\) insertValue\(v any, at \*Element\) \*Element \{\n\treturn l\.insert\(&Element\{Value: v\}, at\)\n\}$/ } }, 'its code');
  t.match(body.doc, /insertValue is a convenience wrapper/);
  t.ok(names(body.callers).includes('List.PushBack'), 'its callers');
  t.equal(body.callersTotal, 6);
  t.ok(body.callers.every((r) => r.distance === 1 && r.sites.length > 0), 'direct callers with their call sites');
  t.ok(body.callees.some((c) => 'qualifiedName' in c.symbol && c.symbol.qualifiedName === 'List.insert'), 'its callees');
  t.ok(body.usagesTotal >= 6, `its usages (${body.usagesTotal})`);
  t.ok(body.tests.some((test) => test.name === 'TestList' && test.distance === 2), 'the tests reaching it');
  t.same(body.members, [], 'no members for a function');
  t.match(body.parts.find((p) => p.part === 'callers'), { operation: 'find_callers', precision: 'semantic', total: 6 });
  t.match(body.parts.find((p) => p.part === 'usages'), { operation: 'find_usages', precision: 'semantic' });

  const type = await getJson<ContextResponse>(app, '/symbols/context?symbol=List&kind=struct');
  t.equal(type.status, 200);
  t.ok(type.body.members.some((m) => m.name === 'PushBack') && type.body.members.some((m) => m.name === 'Len'), 'a type\'s members');
  t.ok(type.body.membersTotal >= 20);
  t.ok(type.body.members.length <= 30, 'capped');
  t.same(type.body.callers, [], 'no callers for a type');
  t.ok(type.body.usagesTotal > 10, 'and how often it is used');

  const md = await app.inject({ url: '/symbols/context?symbol=insertValue&format=markdown' });
  t.match(md.body, /^# `List\.insertValue` \(Method, list\.go:\d+, id `[\w-]+`\)/);
  t.match(md.body, /## Definition list\.go:\d+-\d+\n\n```go\nfunc \(l \*List\) insertValue/);
  t.match(md.body, /## Callers \(6\)/);
  t.match(md.body, /## Tests reaching it \(\d+\)[\s\S]*`TestList`/);

  const { client } = await connectHttp(t, app);
  const result = await call(client, 'symbol_context', { symbol: 'insertValue' });
  t.notOk(result.isError);
  t.equal((structured(result) as ContextResponse).callersTotal, 6);
  t.match(textOf(result), /## Callees/);
  t.equal((await getJson(app, '/symbols/context?symbol=NoSuchSymbol')).status, 404);
});

t.test('TypeScript (rxjs): a class with its base, members, inheritors and their overrides', async (t) => {
  const app = await startApp(t, RXJS_SRC, { index: { watch: false } });
  await indexReady(app);
  const { status, body } = await getJson<ContextResponse>(app, '/symbols/context?symbol=Subscriber&kind=class');
  t.equal(status, 200);
  t.match(body.symbol, { name: 'Subscriber', file: 'internal/Subscriber.ts' });
  t.ok(body.bases.some((b) => b.name === 'Subscription' && b.resolved), 'its base');
  t.ok(body.members.some((m) => m.name === 'next'), 'its members');
  const inheritors = names(body.inheritors);
  for (const name of ['SafeSubscriber', 'OperatorSubscriber']) t.ok(inheritors.includes(name), `inherited by ${name}`);
  t.match(body.overrides.find((r) => 'qualifiedName' in r.symbol && r.symbol.qualifiedName === 'OperatorSubscriber.unsubscribe'), { relation: 'overrides', distance: 1, via: { name: 'OperatorSubscriber' } }, 'their overrides of its methods');
  t.match(body.parts.find((p) => p.part === 'inheritors'), { precision: 'semantic', total: 2 }, 'confirmed by the server');
  t.ok(body.usagesTotal > 0);
});
