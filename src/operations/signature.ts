import { DocQuery, DocResponse, SignatureQuery, SignatureResponse } from '../../schemas/calls.js';
import { docMarkdown, signatureMarkdown } from '../format/calls.js';
import { findDoc, findSignature } from '../symbols/signature.js';
import { defineOperation } from './operation.js';

export const signatureOperation = defineOperation({
  http: {
    path: '/symbols/signature',
    summary: 'Declaration heads and hover of a symbol',
    description: [
      'The signature of every symbol a name matches (every overload): each place\'s declaration head from the source, from the declaration\'s start (template heads, decorators, attributes included) to where its body begins, multi-line and indented as written (a C++ declaration and its definition each give theirs, definition first); plus the language server\'s hover at the name where a server serves the language.',
      'A hover that fails or times out is only left out, with `hoverNote` saying why; `include_hover=false` skips it.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404],
    example: '/symbols/signature?symbol=Flask.route',
  },
  tool: {
    name: 'get_signature',
    title: 'Signature of a function or type',
    description: 'Each overload\'s declaration head from source, and the language server\'s hover: how to call something. Example: {"symbol": "Config.from_pyfile"}',
  },
  input: SignatureQuery,
  response: SignatureResponse,
  run: (services, query, signal) => findSignature(services, query, signal),
  markdown: signatureMarkdown,
});

export const docOperation = defineOperation({
  http: {
    path: '/symbols/doc',
    summary: 'Doc comment of a symbol',
    description: [
      'The doc comment of every symbol a name matches, as plain text: `///` and `//` blocks, `/** */`, `#` comments, Python docstrings, the `//` block above a Go declaration, with markers, quotes and common indentation removed. From the index, no server needed.',
      'A C++ symbol documented at its declaration (header) and defined elsewhere gives the declaration\'s comment, with `docFile`/`docLine`. A symbol without one has `doc: null`.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404],
    example: '/symbols/doc?symbol=Observable.pipe',
  },
  tool: {
    name: 'get_doc',
    title: 'Doc comment of a symbol',
    description: 'A symbol\'s doc comment as plain text. Example: {"symbol": "Flask.route"}',
  },
  input: DocQuery,
  response: DocResponse,
  run: (services, query) => findDoc(services, query),
  markdown: docMarkdown,
});
