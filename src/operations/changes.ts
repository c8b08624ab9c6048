import { ChangesQuery, ChangesResponse } from '../../schemas/impact.js';
import { changesMarkdown } from '../format/impact.js';
import { detectChanges } from '../symbols/changes.js';
import { defineOperation } from './operation.js';

export const changesOperation = defineOperation({
  http: {
    method: 'POST',
    path: '/changes',
    summary: 'What a diff changes and what that reaches',
    description: [
      'The symbols a unified diff touches and their impact. Send `{"diff": "<unified diff>"}`, or `{"base": "<git ref>"}` for the working tree against that ref through `git diff` (the workspace must be a git repository; untracked files count as added).',
      'Each file\'s two sides are read (the working tree holds the new side when the diff is applied, the old one when it is not yet; the other is the diff applied or taken back) and parsed as the index parses them: each innermost symbol a changed line touches is `added`, `modified` or `removed` (removed ones from the old side), with its id where the index holds it.',
      'The impact of each (as /symbols/impact: callers to `depth`, usages, overrides, inheritors; a removed symbol\'s former callers and usages by its name in the source, marked syntactic) is merged into one ranked `results` list, each result naming the changed symbols it comes `from`, with `files` and the `tests` to run.',
      'A body that is not a unified diff is a 400 naming `diff`; a path outside the workspace (also through a link) is a 400 `path_outside_root` and nothing is read; files the index does not hold (deleted, ignored) are listed in `changedFiles` with a note.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 413],
    example: '/changes',
    exampleBody: { base: 'HEAD', depth: 2 },
  },
  tool: {
    name: 'detect_changes',
    title: 'What a diff changes and which tests to run',
    description: [
      'Given a unified diff (`diff`) or a git ref to compare the working tree with (`base`, e.g. "HEAD"), lists the functions, methods and types it adds, modifies or removes, and what they reach: callers, usages, overrides, the affected files and the tests that reach them.',
      'Use it after editing, before running tests or committing; find_impact answers the same for one symbol.',
      'Example: {"base": "HEAD"}',
    ].join(' '),
  },
  input: ChangesQuery,
  response: ChangesResponse,
  run: (services, query, signal) => detectChanges(services, query, signal),
  markdown: changesMarkdown,
});
