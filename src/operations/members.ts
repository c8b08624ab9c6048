import { MembersQuery, MembersResponse } from '../../schemas/navigation.js';
import { membersMarkdown } from '../format/navigation.js';
import { listMembers } from '../symbols/members.js';
import { defineOperation } from './operation.js';

export const membersOperation = defineOperation({
  http: {
    path: '/symbols/members',
    aliases: ['/members'],
    summary: 'Members of a type',
    description: [
      'The members of one type (class, struct, interface, enum, type alias) in declaration order, from the index: fields, methods, constructors, nested types, with kind, line, signature, and `static`/`visibility` where the syntax says.',
      'C++: members declared in the class (annotation macros such as UPROPERTY()/UFUNCTION() are not members) and methods defined out of line, one entry each (definitionAt points at the out-of-line definition). Go: a struct\'s receiver methods from every file of its package. Python: methods, class attributes and `self.x = ...` of `__init__`. Rust: the methods of its impl blocks.',
      '`kind` filters the members. The type is resolved like every single-symbol operation: types only, forward declarations dropped; several matches → 409 listing them with ids, retry with `id`.',
      '`bases` lists the bases as written, resolved through the index where they are in it (resolved: false otherwise). inherited=true adds each base\'s members (transitively), each with inheritedFrom; a base member overridden in the type appears once, as the override, whose `overrides` names it.',
    ].join(' '),
    tags: ['navigation'],
    errors: [400, 404, 409],
    example: '/symbols/members?symbol=Subject&inherited=true',
  },
  tool: {
    name: 'list_members',
    title: 'List the members of a type',
    description: 'The members of a class, struct or interface in declaration order (inherited=true adds the bases\'): a type\'s API at a glance. Example: {"symbol": "Subject", "kind": "method"}',
  },
  input: MembersQuery,
  response: MembersResponse,
  run: (services, query) => listMembers(services, query),
  markdown: membersMarkdown,
});
