/**
 * The query side reads a file in the language the index decided for it: a `.h` in a C tree is C
 * (src/languages/cpp/header-language.ts), and syntactic callers and usages parse it with the C grammar, where C++'s
 * would stumble on C code (`struct list *new`, `*this`, `*class`: the kernel's list.h) and miss the calls in it.
 * clangd is left out (a command that does not exist), so the answers are the syntactic ones.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { CallsResponse } from '../../schemas/calls.js';
import type { UsagesResponse } from '../../schemas/usages.js';
import { getJson, startApp, tempDir } from '../helpers.js';
import { indexReady } from '../wait.js';

const root = tempDir(t);
mkdirSync(path.join(root, 'include'));
mkdirSync(path.join(root, 'lib'));
writeFileSync(path.join(root, 'include/list.h'), `#ifndef LIST_H
#define LIST_H
struct list { struct list *new, *class; };
void __list_add(struct list *new, struct list *prev, struct list *next);
static inline void list_add(struct list *new, struct list *head)
{
\tstruct list *this = head;
\t__list_add(new, this, head->new);
}
#endif
`);
writeFileSync(path.join(root, 'lib/list.c'), `#include "list.h"
void __list_add(struct list *new, struct list *prev, struct list *next)
{
\tprev->new = new;
\tnew->class = next;
}
`);
writeFileSync(path.join(root, 'lib/main.c'), `#include "list.h"
int main(void)
{
\tstruct list a, b;
\tlist_add(&a, &b);
\treturn 0;
}
`);
const app = await startApp(t, root, { languages: { cpp: { command: '/nonexistent/clangd' } } });
await indexReady(app, 60_000);

t.test('the index decided the header is C', async (t) => {
  const { body } = await getJson(app, '/symbols?query=list_add&kind=function&language=c');
  t.match(body.results, [{ name: 'list_add', file: 'include/list.h', language: 'c' }]);
});

t.test('syntactic callers read the C header as C: the call in list_add is found', async (t) => {
  const { status, body } = await getJson<CallsResponse>(app, '/symbols/callers?symbol=__list_add');
  t.equal(status, 200);
  t.equal(body.precision, 'syntactic');
  t.match(body.reason, /clangd|C\/C\+\+ server/);
  t.same(body.results.map((r) => `${r.symbol.name} ${r.calls.map((c) => `${c.file}:${c.line}`).join(',')}`), ['list_add include/list.h:8']);
});

t.test('syntactic usages classify the header\'s use as a call, from its C tree', async (t) => {
  const { status, body } = await getJson<UsagesResponse>(app, '/symbols/usages?symbol=__list_add');
  t.equal(status, 200);
  t.equal(body.precision, 'syntactic');
  t.match(body.results, [{ file: 'include/list.h', line: 8, usageKind: 'call', enclosingSymbol: { name: 'list_add' } }]);
});
