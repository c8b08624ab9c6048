// typescript-eslint needs TypeScript's JavaScript API, which TypeScript 7 (plumb's `typescript`: the native
// compiler and language server) no longer has. `npm run lint` preloads this file so that the lint process
// alone resolves `typescript` to TypeScript 6 (the `typescript6` dev dependency, @typescript/typescript6).
const Module = require('node:module');

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const mapped = request === 'typescript' || request.startsWith('typescript/') ? request.replace(/^typescript/, 'typescript6') : request;
  return resolve.call(this, mapped, ...rest);
};
