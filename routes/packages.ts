import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/common.js';
import { PackageParams, PackageSymbolsQuery, PackageSymbolsResponse, PackagesQuery, PackagesResponse } from '../schemas/packages.js';
import { getPackageSymbols, listPackages } from '../src/symbols/packages.js';
import { packageSymbolsMarkdown, packagesMarkdown } from '../src/format/symbols.js';
import { sendResult } from '../src/format/negotiate.js';

const packageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/packages', {
    schema: {
      summary: 'Packages of the workspace',
      description: 'Every package the index knows, named as its manifest spells it (package.json, go.mod, Cargo.toml, pyproject.toml/setup.cfg, pom.xml, *.csproj, *.Build.cs, CMakeLists.txt project()); a directory without one is named after its top-level directory (the workspace\'s own name at the root). Workspace packages first, then external ones, by name.',
      tags: ['symbols'],
      querystring: PackagesQuery,
      response: { 200: PackagesResponse, ...errorResponses([400]) },
    },
  }, async (request, reply) => sendResult(request, reply, await listPackages(app.plumb, request.query), packagesMarkdown));

  app.get('/packages/:name/symbols', {
    schema: {
      summary: 'Symbols of one package',
      description: 'The package\'s symbols ordered by file, then line. `name` is URL-encoded (`%40scope%2Fname`), matched exactly, else by the one case-insensitive match; unknown → 404 `Package \'<name>\' not found`; a package without symbols → 200 with an empty list.',
      tags: ['symbols'],
      params: PackageParams,
      querystring: PackageSymbolsQuery,
      response: { 200: PackageSymbolsResponse, ...errorResponses([400, 404]) },
    },
  }, async (request, reply) => sendResult(request, reply, await getPackageSymbols(app.plumb, request.params.name, request.query), packageSymbolsMarkdown));
};

export default packageRoutes;
