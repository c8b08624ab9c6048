/**
 * Multi-host store URLs (src/index/postgres/hosts.ts): one URL per server with the original's user, password,
 * database and other parameters; target_session_attrs and load_balance_hosts read as libpq reads them; which server a
 * new connection goes to as servers fail or turn out to be of the wrong kind.
 */
import t from 'tap';
import { PlumbError } from '../../src/errors.js';
import { BACKOFF_MS, Hosts, parseStoreUrl } from '../../src/index/postgres/hosts.js';

t.test('a single-server URL is left as it is', async (t) => {
  const url = 'postgres://plumb:secret@db:5432/plumb?sslmode=require';
  t.same(parseStoreUrl(url), { hosts: [{ label: 'db:5432', url }], targetSessionAttrs: 'any', loadBalance: false });
});

t.test('several servers: one URL each, the multi-host parameters taken out', async (t) => {
  const parsed = parseStoreUrl('postgresql://plumb:s%40cret@standby-1:5432,standby-2,db:6432/plumb?target_session_attrs=prefer-standby&sslmode=disable&load_balance_hosts=disable');
  t.equal(parsed.targetSessionAttrs, 'prefer-standby');
  t.equal(parsed.loadBalance, false);
  t.same(parsed.hosts, [
    { label: 'standby-1:5432', url: 'postgresql://plumb:s%40cret@standby-1:5432/plumb?sslmode=disable' },
    { label: 'standby-2', url: 'postgresql://plumb:s%40cret@standby-2/plumb?sslmode=disable' },
    { label: 'db:6432', url: 'postgresql://plumb:s%40cret@db:6432/plumb?sslmode=disable' },
  ]);
  t.same(parseStoreUrl('postgres://db/plumb?target_session_attrs=standby').hosts, [{ label: 'db', url: 'postgres://db/plumb' }]);
});

t.test('a parameter plumb cannot honour is refused, naming what is allowed', async (t) => {
  t.throws(() => parseStoreUrl('postgres://a,b/plumb?target_session_attrs=secondary'), PlumbError);
  t.throws(() => parseStoreUrl('postgres://a,b/plumb?target_session_attrs=secondary'), /target_session_attrs 'secondary' is not one of any, read-write, read-only, primary, standby, prefer-standby/);
  t.throws(() => parseStoreUrl('postgres://a,b/plumb?load_balance_hosts=round-robin'), /load_balance_hosts 'round-robin' is not disable or random/);
  t.throws(() => parseStoreUrl('postgres://a,,b/plumb'), /an empty host/);
});

t.test('the pool keeps to a server while it answers, and moves on when it fails', async (t) => {
  let now = 1000;
  const hosts = new Hosts(parseStoreUrl('postgres://a,b,c/plumb'), () => now);
  t.equal(hosts.pick().index, 0);
  t.ok(hosts.connected(0, true));
  t.equal(hosts.pick().index, 0, 'the same server again');
  hosts.failed(0);
  t.equal(hosts.pick().index, 1, 'the next one once it failed');
  t.ok(hosts.connected(1, false));
  now += BACKOFF_MS + 1;
  t.equal(hosts.pick().index, 1, 'kept to while it answers, even when the first is back');
  hosts.failed(1);
  now += 10;
  hosts.failed(2);
  t.equal(hosts.pick().index, 0);
  now += 10;
  hosts.failed(0);
  t.equal(hosts.pick().index, 1, 'all passed over: the one passed over the longest ago');
});

t.test('target_session_attrs decides which servers a connection may keep', async (t) => {
  const now = 1000;
  const standby = new Hosts(parseStoreUrl('postgres://db,replica/plumb?target_session_attrs=standby'), () => now);
  t.notOk(standby.connected(0, false), 'a primary is refused');
  t.match(standby.refusal(0, false), 'db is a primary, and target_session_attrs is standby');
  t.equal(standby.pick().index, 1, 'the next server is tried');
  t.ok(standby.connected(1, true));
  const primary = new Hosts(parseStoreUrl('postgres://replica,db/plumb?target_session_attrs=read-write'), () => now);
  t.notOk(primary.connected(0, true));
  t.ok(primary.connected(1, false));
});

t.test('prefer-standby takes a primary only when no standby answers', async (t) => {
  let now = 1000;
  const hosts = new Hosts(parseStoreUrl('postgres://db,replica/plumb?target_session_attrs=prefer-standby'), () => now);
  t.notOk(hosts.connected(0, false), 'a primary first: another server may be a standby');
  t.equal(hosts.pick().index, 1);
  hosts.failed(1);
  t.equal(hosts.pick().index, 0, 'the standby is down: the primary');
  t.ok(hosts.connected(0, false), 'and it is taken');
  now += BACKOFF_MS + 1;
  t.equal(hosts.pick().index, 1, 'the standby answers again: new connections try it first');
  t.ok(hosts.connected(1, true));
});
