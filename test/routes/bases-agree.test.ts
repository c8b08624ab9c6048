/**
 * One base resolver (src/symbols/base-resolver.ts): members with inherited=true and hierarchy up name the
 * same type for every written base, on real trees. Servers are off so both answers are the index's alone:
 * the comparison is of the resolver, not of what a server adds.
 */
import t, { type Test } from 'tap';
import { FLASK, GOOGLETEST, getJson, startApp } from '../helpers.js';
import { indexReady, RXJS } from '../index/helpers.js';
import type { PlumbApp } from '../../src/app.js';
import type { StoredSymbol } from '../../src/index/store.js';

const NO_SERVERS = { languages: { cpp: { enabled: false }, python: { enabled: false }, typescript: { enabled: false }, go: { enabled: false } } };

/** Every type deriving from one of these names, as the index lists them. */
async function derivedTypes(app: PlumbApp, baseNames: string[]): Promise<StoredSymbol[]> {
  const seen = new Map<string, StoredSymbol>();
  for (const name of baseNames) {
    for (const symbol of await app.plumb.index.reader.symbolsWithBase(name, 200)) if (!symbol.forwardDeclaration) seen.set(symbol.id, symbol);
  }
  return [...seen.values()];
}

async function compare(t: Test, app: PlumbApp, types: StoredSymbol[]): Promise<void> {
  let compared = 0;
  let withBases = 0;
  for (const type of types) {
    const members = await getJson(app, `/symbols/members?id=${type.id}&inherited=true&limit=1`);
    const hierarchy = await getJson(app, `/symbols/hierarchy?id=${type.id}&direction=up&depth=1`);
    if (members.status !== 200 || hierarchy.status !== 200) {
      t.fail(`${type.qualifiedName}: members ${members.status}, hierarchy ${hierarchy.status}`);
      continue;
    }
    const fromMembers = new Set<string>(members.body.bases.filter((b: { depth: number; resolved: boolean }) => b.depth === 1 && b.resolved).map((b: { id: string }) => b.id));
    const fromHierarchy = new Set<string>(hierarchy.body.supertypes.filter((n: { id?: string }) => n.id).map((n: { id: string }) => n.id));
    const unresolvedInMembers = members.body.bases.filter((b: { depth: number; resolved: boolean }) => b.depth === 1 && !b.resolved).length;
    const missing = [...fromMembers].filter((id) => !fromHierarchy.has(id));
    t.same(missing, [], `${type.qualifiedName} (${type.file}): every base members resolved is one the hierarchy names`);
    // The hierarchy lists every type a base written ambiguously may be (`confidence: 'name'`), members the first of
    // them: what the hierarchy confirms, members names too, and anything more it lists is one of those namesakes.
    const confirmed = hierarchy.body.supertypes.filter((n: { id?: string; confidence?: string }) => n.id && !n.confidence).map((n: { id: string }) => n.id);
    t.same(confirmed.filter((id: string) => !fromMembers.has(id)), [], `${type.qualifiedName} (${type.file}): every base the hierarchy confirms is one members resolved (${unresolvedInMembers} unresolved in members)`);
    const extra = hierarchy.body.supertypes.filter((n: { id?: string; confidence?: string }) => n.id && !fromMembers.has(n.id) && n.confidence !== 'name');
    t.same(extra, [], `${type.qualifiedName}: the hierarchy's other bases are namesakes it could not tell apart`);
    compared++;
    if (fromMembers.size > 0) withBases++;
  }
  t.ok(compared >= Math.min(10, types.length), `${compared} types compared`);
  t.ok(withBases * 2 >= compared, `${withBases} of ${compared} with a base both resolve: the comparison is not of empty answers`);
}

t.test('googletest', async (t) => {
  const app = await startApp(t, GOOGLETEST, NO_SERVERS);
  await indexReady(app);
  const types = await derivedTypes(app, ['Test', 'TestWithParam', 'Environment', 'EmptyTestEventListener', 'TestEventListener', 'ParameterizedTestCaseInfoBase', 'MatcherInterface', 'Interface']);
  t.ok(types.length >= 30, `${types.length} derived types`);
  await compare(t, app, types);
});

t.test('flask', async (t) => {
  const app = await startApp(t, FLASK, NO_SERVERS);
  await indexReady(app);
  const types = await derivedTypes(app, ['Scaffold', 'App', 'Exception', 'Response', 'Request', 'BadRequest', 'JSONProvider', 'View', 'SessionInterface', 'SecureCookieSessionInterface', 'CallbackDict', 'SessionMixin', 'dict', 'BaseConverter', 'Group', 'ParamType', 'AppGroup', 'Blueprint', 'SansioBlueprint', 'TaggedJSONSerializer', 'JSONTag', 'ABC', 'Protocol', 'TypedDict']);
  t.ok(types.length >= 12, `${types.length} derived types`);
  await compare(t, app, types);
});

t.test('rxjs', async (t) => {
  const app = await startApp(t, RXJS, NO_SERVERS);
  await indexReady(app);
  const types = await derivedTypes(app, ['Subscriber', 'Subject', 'Observable', 'Subscription', 'AsyncAction', 'AsyncScheduler', 'Action', 'Scheduler', 'SchedulerLike', 'Error']);
  t.ok(types.length >= 15, `${types.length} derived types`);
  await compare(t, app, types);
});
