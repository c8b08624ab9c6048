/**
 * The one server conversation (src/symbols/server-conversation.ts) against a real pyright: what a server serves
 * decides the session, every failure becomes one outcome shape, the syntactic answer follows with the reason,
 * and a caller going away is request_cancelled, never an outcome. pyright serves references and definitions,
 * and neither type hierarchy nor implementation.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ReferencesRequest, TypeHierarchyPrepareRequest } from 'vscode-languageserver-protocol';
import { PlumbError } from '../../src/errors.js';
import {
  IMPLEMENTATION, REFERENCES, semanticOr, ServerConversation, ServerRequestFailure, TYPE_HIERARCHY,
} from '../../src/symbols/server-conversation.js';
import { startApp, tempDir } from '../helpers.js';

const root = tempDir(t, 'plumb-conversation-');
writeFileSync(path.join(root, 'shapes.py'), 'class Shape:\n    def area(self) -> float:\n        return 0.0\n\n\ndef total(shapes: list[Shape]) -> float:\n    return sum(s.area() for s in shapes)\n');
writeFileSync(path.join(root, 'lib.rs'), 'pub fn area() -> f64 { 0.0 }\n');
const app = await startApp(t, root, { lsp: { startTimeoutMs: 120_000 } });
const services = app.plumb;
const shapes = { absolute: path.join(root, 'shapes.py'), relative: 'shapes.py' };
const at = { textDocument: { uri: services.workspace.uriOf(shapes.absolute) }, position: { line: 0, character: 6 } };

t.test('a server that serves the request: a session that answers, naming the request', async (t) => {
  const conversation = new ServerConversation(services, undefined, { budget: 3 });
  const session = await conversation.open(shapes, 'python', [REFERENCES]);
  t.match(session.outcome, { language: 'Python', request: 'textDocument/references', state: /^(answered|indexing)$/ });
  t.ok(session.usable);
  const references = await conversation.ask(session, ReferencesRequest.type, { ...at, context: { includeDeclaration: true } });
  t.ok((references ?? []).length >= 2, 'the class and its use in the annotation');
  t.equal(conversation.remaining, 2, 'counted against the budget');
});

t.test('what the server does not serve, what no server serves, and where no server looks: unsupported, saying why', async (t) => {
  const conversation = new ServerConversation(services, undefined);
  const hierarchy = await conversation.open(shapes, 'python', [TYPE_HIERARCHY, IMPLEMENTATION]);
  t.match(hierarchy.outcome, { language: 'Python', request: null, state: 'unsupported', reason: /serves neither typeHierarchy\/subtypes nor textDocument\/implementation \(no typeHierarchyProvider, implementationProvider\)/ });
  t.notOk(hierarchy.usable);
  const rust = await conversation.open({ absolute: path.join(root, 'lib.rs'), relative: 'lib.rs' }, 'rust', [REFERENCES]);
  t.same(rust.outcome, { language: 'rust', request: null, state: 'unsupported', reason: 'no language server serves rust' });
  const outside = await conversation.open('/usr/lib/python3/dist-packages/x.py', 'python', [REFERENCES]);
  t.match(outside.outcome, { state: 'unsupported', reason: /lies outside the workspace/ });
});

t.test('a request the server fails: the outcome says which and why, and the syntactic answer follows', async (t) => {
  const conversation = new ServerConversation(services, undefined);
  const session = await conversation.open(shapes, 'python', [REFERENCES]);
  // pyright declares no type hierarchy: asked anyway, it answers with an error.
  const found = await semanticOr<unknown>(session, () => conversation.ask(session, TypeHierarchyPrepareRequest.type, at), async (reason) => `syntactic: ${reason}`);
  t.equal(found.precision, 'syntactic');
  t.match(session.outcome, { language: 'Python', request: 'textDocument/prepareTypeHierarchy', state: /^(unsupported|failed)$/, reason: /the Python server (does not serve|could not answer) textDocument\/prepareTypeHierarchy/ });
  t.equal(found.answer, `syntactic: ${session.outcome.reason}`, 'the fallback is given the outcome\'s reason');
});

t.test('a caller that went away: request_cancelled, thrown, never an outcome', async (t) => {
  const controller = new AbortController();
  const conversation = new ServerConversation(services, controller.signal);
  const session = await conversation.open(shapes, 'python', [REFERENCES]);
  controller.abort();
  const error = await conversation.ask(session, ReferencesRequest.type, { ...at, context: { includeDeclaration: true } }).catch((caught: unknown) => caught);
  t.type(error, PlumbError);
  t.notOk(error instanceof ServerRequestFailure);
  t.match(error, { code: 'request_cancelled' });
  t.ok(session.usable, 'the session is as it was');
});

t.test('a server that runs out of time: a 504 where the answer fails on it, a failed outcome where it falls back', async (t) => {
  const timed = await startApp(t, root, { lsp: { startTimeoutMs: 120_000, requestTimeoutMs: 500 } });
  const warm = new ServerConversation(timed.plumb, undefined);
  const session = await warm.open(shapes, 'python', [REFERENCES]);
  await warm.ask(session, ReferencesRequest.type, { ...at, context: { includeDeclaration: true } });
  const pid = timed.plumb.lsp.status().find((s) => s.language === 'python')!.pid!;
  process.kill(pid, 'SIGSTOP');
  t.teardown(() => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {}
  });
  const failing = new ServerConversation(timed.plumb, undefined, { timeouts: 'fail' });
  await t.rejects(failing.ask(session, ReferencesRequest.type, { ...at, context: { includeDeclaration: true } }), { code: 'server_timeout' });
  const falling = new ServerConversation(timed.plumb, undefined, { timeouts: 'fall back' });
  const found = await semanticOr<unknown>(session, () => falling.ask(session, ReferencesRequest.type, { ...at, context: { includeDeclaration: true } }), async () => 'syntactic');
  t.equal(found.answer, 'syntactic');
  // Timed out again, or (a request unanswered past its deadline, nothing heard since) failing fast as unavailable.
  t.match(session.outcome, { request: 'textDocument/references', state: /^(failed|unavailable)$/, reason: /the Python server could not answer textDocument\/references/ });
  process.kill(pid, 'SIGCONT');
});
