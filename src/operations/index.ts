/**
 * Every operation plumb serves, in the order routes are registered, tools/list gives them and
 * docs/API.md describes them: finding by name first, then one symbol's navigation, then files and packages.
 * One file per operation (or per pair that shares its schemas) in this directory.
 */
import { batchOperation } from './batch.js';
import { calleesOperation, callersOperation } from './calls.js';
import { changesOperation } from './changes.js';
import { childrenOperation } from './children.js';
import { contextOperation } from './context.js';
import { counterpartOperation } from './counterpart.js';
import { declarationOperation } from './declaration.js';
import { getSymbolOperation } from './get-symbol.js';
import { hierarchyOperation } from './hierarchy.js';
import { impactOperation } from './impact.js';
import { implementationsOperation } from './implementations.js';
import { inheritorsOperation } from './inheritors.js';
import { membersOperation } from './members.js';
import type { Operation } from './operation.js';
import { outlineOperation } from './outline.js';
import { pathOperation } from './path.js';
import { listPackagesOperation, packageSymbolsOperation } from './packages.js';
import { resolveOperation } from './resolve.js';
import { searchSymbolsOperation } from './search-symbols.js';
import { docOperation, signatureOperation } from './signature.js';
import { statementsOperation } from './statements.js';
import { healthOperation, statusOperation } from './status.js';
import { usagesOperation } from './usages.js';

export const OPERATIONS: Operation[] = [
  searchSymbolsOperation,
  getSymbolOperation,
  declarationOperation,
  resolveOperation,
  usagesOperation,
  membersOperation,
  inheritorsOperation,
  hierarchyOperation,
  implementationsOperation,
  callersOperation,
  calleesOperation,
  impactOperation,
  changesOperation,
  pathOperation,
  contextOperation,
  signatureOperation,
  docOperation,
  counterpartOperation,
  statementsOperation,
  listPackagesOperation,
  packageSymbolsOperation,
  outlineOperation,
  childrenOperation,
  statusOperation,
  healthOperation,
  // Last: it runs the others, named by their tools.
  batchOperation(() => OPERATIONS),
];

export { defineOperation, endpointOf, type Operation } from './operation.js';
