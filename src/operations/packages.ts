import { Type } from 'typebox';
import { PackageParams, PackageSymbolsQuery, PackageSymbolsResponse, PackagesQuery, PackagesResponse } from '../../schemas/packages.js';
import { packageSymbolsMarkdown, packagesMarkdown } from '../format/symbols.js';
import { getPackageSymbols, listPackages } from '../symbols/packages.js';
import { defineOperation } from './operation.js';

export const listPackagesOperation = defineOperation({
  http: {
    path: '/packages',
    summary: 'Packages of the workspace',
    description: 'Every package the index knows, named as its manifest spells it (package.json, go.mod, Cargo.toml, pyproject.toml/setup.cfg, pom.xml, *.csproj, *.Build.cs, CMakeLists.txt project()); a directory without one is named after its top-level directory (the workspace\'s own name at the root). Workspace packages first, then external ones, by name.',
    tags: ['symbols'],
    errors: [400],
    example: '/packages?scope=user',
  },
  tool: {
    name: 'list_packages',
    title: 'Packages of the workspace',
    description: 'The packages (modules, crates, projects) of the workspace from their manifests: the lay of an unknown repository. Example: {"scope": "user"}',
  },
  input: PackagesQuery,
  response: PackagesResponse,
  run: (services, query) => listPackages(services, query),
  markdown: packagesMarkdown,
});

export const packageSymbolsOperation = defineOperation({
  http: {
    path: '/packages/:name/symbols',
    params: PackageParams,
    summary: 'Symbols of one package',
    description: 'The package\'s symbols ordered by file, then line. `name` is URL-encoded (`%40scope%2Fname`), matched exactly, else by the one case-insensitive match; unknown → 404 `Package \'<name>\' not found`; a package without symbols → 200 with an empty list.',
    tags: ['symbols'],
    errors: [400, 404],
    example: '/packages/flask/symbols?kind=class',
  },
  tool: {
    name: 'get_package_symbols',
    title: 'Symbols of one package',
    description: 'The symbols of one package, by file and line: a package\'s API. Example: {"name": "flask", "kind": "class"}',
  },
  // The package travels in the path over HTTP (/packages/{name}/symbols) and as an argument to the tool.
  input: Type.Object({ name: PackageParams.properties.name, ...PackageSymbolsQuery.properties }),
  response: PackageSymbolsResponse,
  run: (services, { name, ...query }) => getPackageSymbols(services, name, query),
  markdown: packageSymbolsMarkdown,
});
