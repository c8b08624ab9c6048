/**
 * Every operation plumb serves, in the order routes are registered and tools/list gives them.
 * One file per operation (or per pair that shares its schemas) in this directory.
 */
import { childrenOperation } from './children.js';
import { getSymbolOperation } from './get-symbol.js';
import type { Operation } from './operation.js';
import { outlineOperation } from './outline.js';
import { listPackagesOperation, packageSymbolsOperation } from './packages.js';
import { searchSymbolsOperation } from './search-symbols.js';
import { statementsOperation } from './statements.js';
import { healthOperation, statusOperation } from './status.js';

export const OPERATIONS: Operation[] = [
  searchSymbolsOperation,
  getSymbolOperation,
  listPackagesOperation,
  packageSymbolsOperation,
  outlineOperation,
  childrenOperation,
  statusOperation,
  healthOperation,
  statementsOperation,
];

export { defineOperation, endpointOf, type Operation } from './operation.js';
