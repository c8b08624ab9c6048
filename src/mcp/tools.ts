import { Type, type TSchema } from 'typebox';
import { ChildrenQuery, ChildrenResponse } from '../../schemas/children.js';
import { OutlineNodeSchema, OutlineQuery, OutlineResponse } from '../../schemas/outline.js';
import { StatusResponse } from '../../schemas/status.js';
import { SymbolSearchQuery, SymbolSearchResponse } from '../../schemas/symbols.js';
import { PackageParams, PackageSymbolsQuery, PackageSymbolsResponse, PackagesQuery, PackagesResponse } from '../../schemas/packages.js';
import { packageSymbolsMarkdown, packagesMarkdown, symbolSearchMarkdown } from '../format/symbols.js';
import { searchSymbols } from '../symbols/search.js';
import { getPackageSymbols, listPackages } from '../symbols/packages.js';
import { childrenMarkdown, outlineMarkdown } from '../format/outline.js';
import { statusMarkdown } from '../format/status.js';
import { childrenOptionsFromQuery, getChildren } from '../symbols/children.js';
import { getOutline, outlineOptionsFromQuery } from '../symbols/outline.js';
import { readStatus } from '../symbols/status.js';
import { defineTool, type PlumbTool } from './tool.js';

/** Schemas the routes register by $id (app.addSchema); tool schemas carry them as $defs. */
export const SHARED_SCHEMAS: TSchema[] = [OutlineNodeSchema];

// get_symbol is /symbols?match=exact: the same parameters, `query` required, `match` fixed, `id` left to search_symbols.
const { match: _match, query: _query, id: _id, ...exactLookupFields } = SymbolSearchQuery.properties;
const GetSymbolQuery = Type.Object({
  query: Type.String({ maxLength: 500, description: 'The exact symbol name (`Config`, `from_pyfile`) or one qualified by its containers (`Config.from_pyfile`, `ns::Widget::draw`)' }),
  ...exactLookupFields,
});

// The package travels in the path over HTTP (/packages/{name}/symbols) and as an argument here.
const PackageSymbolsArguments = Type.Object({ name: PackageParams.properties.name, ...PackageSymbolsQuery.properties });

/** Every MCP tool, in the order tools/list gives them: one entry per endpoint. */
export const TOOLS: PlumbTool[] = [
  defineTool({
    name: 'search_symbols',
    endpoint: 'GET /symbols',
    title: 'Find symbols by name across the workspace',
    description: [
      'Solution-wide symbol search over plumb\'s index: finds classes, functions, methods, fields, types by name without knowing their file, in every language of the workspace.',
      'Matches exact names first, then prefixes, CamelCase initials (`FPC` finds FMyPlayerController), substrings, and words of signatures and return types (`Receipt` finds a function returning Receipt); narrow with kind, package, language, containingType.',
      'Use it first whenever you know (part of) a name: it is much faster and more complete than grepping. Prefer get_symbol when you know the exact name and want only its definitions.',
      'Answers are paged (limit, offset) and say when they are truncated; forward declarations are counted, not listed, unless include_forward_declarations=true.',
      'Example: {"query": "Config", "kind": "class", "limit": 20}',
    ].join(' '),
    query: SymbolSearchQuery,
    response: SymbolSearchResponse,
    run: (services, query) => searchSymbols(services, query),
    markdown: symbolSearchMarkdown,
  }),
  defineTool({
    name: 'get_symbol',
    endpoint: 'GET /symbols',
    title: 'Look up a symbol by its exact name',
    description: [
      'Every symbol whose name is exactly `query` (case-sensitive first, then case-insensitive), from every package unless `package` narrows it, with file, line, signature, parameters, return type, container and doc comment.',
      'Use it when you know the exact name (from code, a log or a stack trace) and want where it is declared and defined.',
      'Prefer search_symbols for partial names, to explore, or to fetch a symbol by the `id` an earlier answer gave. A name with no match is an error: "Symbol \'<name>\' not found".',
      'Example: {"query": "from_pyfile"}',
    ].join(' '),
    query: GetSymbolQuery,
    response: SymbolSearchResponse,
    run: (services, query) => searchSymbols(services, { ...query, match: 'exact' }),
    markdown: symbolSearchMarkdown,
  }),
  defineTool({
    name: 'list_packages',
    endpoint: 'GET /packages',
    title: 'Packages of the workspace',
    description: [
      'The packages (modules, crates, projects) of the workspace, named as their manifests spell them (package.json, go.mod, Cargo.toml, pyproject.toml, *.csproj, CMakeLists.txt...), with path, main language and symbol count.',
      'Use it to get the lay of a repository you do not know, or to find the package name that search_symbols and get_package_symbols narrow by.',
      'Example: {"query": "core", "scope": "user"}',
    ].join(' '),
    query: PackagesQuery,
    response: PackagesResponse,
    run: (services, query) => listPackages(services, query),
    markdown: packagesMarkdown,
  }),
  defineTool({
    name: 'get_package_symbols',
    endpoint: 'GET /packages/{name}/symbols',
    title: 'Symbols of one package',
    description: [
      'The symbols of one package, ordered by file then line, optionally only some kinds (`kind`: "class,function").',
      'Use it to see a package\'s API (its classes and functions) without opening its files; names come from list_packages (exact, else a unique case-insensitive match).',
      'Prefer search_symbols when you are looking for a particular name.',
      'Example: {"name": "flask", "kind": "class"}',
    ].join(' '),
    query: PackageSymbolsArguments,
    response: PackageSymbolsResponse,
    run: (services, { name, ...query }) => getPackageSymbols(services, name, query),
    markdown: packageSymbolsMarkdown,
  }),
  defineTool({
    name: 'symbol_outline',
    endpoint: 'GET /outline',
    title: 'Outline a file',
    description: [
      'The symbol tree of one source file (classes, functions, methods, fields, nested), with kinds and line numbers, from the language server.',
      'Use it to see what a file contains before reading it, or to read just one symbol: name it in display_code_for and its source comes back with the outline, which is much cheaper than reading the whole file.',
      'Prefer get_symbol_children when you already have a position inside a class and want only its members.',
      'Example: {"file": "src/config.py", "display_code_for": "Config.from_pyfile", "depth": 2}',
    ].join(' '),
    query: OutlineQuery,
    response: OutlineResponse,
    run: (services, query, signal) => getOutline(services, outlineOptionsFromQuery(query, signal)),
    markdown: outlineMarkdown,
  }),
  defineTool({
    name: 'get_symbol_children',
    endpoint: 'GET /children',
    title: 'Children of the symbol at a position',
    description: [
      'The symbol at file:line:column (a class, struct, namespace, function) and its members and nested symbols down to depth (1 = direct children, 2, 3 or all), flat in document order, each with its range and parent.',
      'Use it when you have a position (from an outline, a search hit or a stack trace) and want what is inside that symbol; include_hover=true adds each child\'s type and documentation from the language server (slower).',
      'Prefer symbol_outline for a whole file.',
      'Example: {"file": "src/internal/Subject.ts", "line": 17, "column": 14, "depth": "1"}',
    ].join(' '),
    query: ChildrenQuery,
    response: ChildrenResponse,
    run: (services, query, signal) => getChildren(services, childrenOptionsFromQuery(query, signal)),
    markdown: childrenMarkdown,
  }),
  defineTool({
    name: 'index_status',
    endpoint: 'GET /status',
    title: 'Index and language-server status',
    description: [
      'Whether plumb\'s symbol index is built (files and symbols so far) and the state of each language server (stopped until first needed, starting, indexing with progress, ready, crashed).',
      'Use it when answers say partial: true, when a tool reports a server unavailable, or before a large task to see what languages the workspace has running.',
      'Example: {}',
    ].join(' '),
    query: Type.Object({}),
    response: StatusResponse,
    run: (services) => readStatus(services),
    markdown: statusMarkdown,
  }),
];
