/**
 * Every operation plumb serves, in the order routes are registered and tools/list gives them.
 * One file per operation (or per pair that shares its schemas) in this directory.
 */
import { calleesOperation, callersOperation } from './calls.js';
import { childrenOperation } from './children.js';
import { counterpartOperation } from './counterpart.js';
import { declarationOperation } from './declaration.js';
import { getSymbolOperation } from './get-symbol.js';
import { hierarchyOperation } from './hierarchy.js';
import { implementationsOperation } from './implementations.js';
import { inheritorsOperation } from './inheritors.js';
import type { Operation } from './operation.js';
import { outlineOperation } from './outline.js';
import { membersOperation } from './members.js';
import { listPackagesOperation, packageSymbolsOperation } from './packages.js';
import { searchSymbolsOperation } from './search-symbols.js';
import { docOperation, signatureOperation } from './signature.js';
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
  declarationOperation,
  membersOperation,
  counterpartOperation,
  inheritorsOperation,
  hierarchyOperation,
  implementationsOperation,
  callersOperation,
  calleesOperation,
  signatureOperation,
  docOperation,
];

export { defineOperation, endpointOf, type Operation } from './operation.js';
