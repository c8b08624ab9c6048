/**
 * Which database server a new connection goes to. A store URL names one server, or several as libpq's multi-host
 * URLs do (`postgres://user@standby-1:5432,standby-2:5432,db:5432/plumb?target_session_attrs=prefer-standby`),
 * which the pg driver does not read: plumb tries them here, as libpq would.
 *
 * - `target_session_attrs`: `any` (the default), `read-write` or `primary` (a server not in recovery), `read-only`
 *   or `standby` (a hot standby), `prefer-standby` (a standby when one answers, else any). Every new connection asks
 *   its server `pg_is_in_recovery()` before its first use and is refused when it does not fit.
 * - `load_balance_hosts`: `disable` (the default: the first server that answers and fits, in the order written) or
 *   `random` (each process shuffles the order once, so replicas spread over the standbys).
 * - The pool keeps to one server while it answers (every connection on the same server sees the same replayed state);
 *   a server that refuses or cannot be reached is left for BACKOFF_MS and the next one is tried.
 */
import { PlumbError } from '../../errors.js';

export type SessionAttrs = 'any' | 'read-write' | 'read-only' | 'primary' | 'standby' | 'prefer-standby';

const SESSION_ATTRS: readonly SessionAttrs[] = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'];

/** How long a server that failed (unreachable, or of the wrong kind) is passed over. */
export const BACKOFF_MS = 2000;

export interface StoreHost {
  /** host:port as written (a socket directory for host is allowed, as in libpq). */
  label: string;
  /** A single-server URL for the pg driver, without the multi-host parameters. */
  url: string;
}

export interface ParsedStoreUrl {
  hosts: StoreHost[];
  targetSessionAttrs: SessionAttrs;
  loadBalance: boolean;
}

function invalid(message: string): PlumbError {
  return new PlumbError('invalid_parameter', `store: ${message}`);
}

/**
 * Reads a store URL: one URL per server (user, password, database and the other parameters of the original), and
 * the multi-host parameters. A URL the driver reads as it is (one server, no such parameter) comes back unchanged.
 */
export function parseStoreUrl(url: string): ParsedStoreUrl {
  const match = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/.exec(url);
  if (!match) return { hosts: [{ label: url, url }], targetSessionAttrs: 'any', loadBalance: false };
  const [, scheme, userinfo, hostlist, rest] = match;
  const [pathPart, query = ''] = rest.split(/\?(.*)/s, 2);
  let targetSessionAttrs: SessionAttrs = 'any';
  let loadBalance = false;
  const kept: string[] = [];
  for (const pair of query.split('&').filter(Boolean)) {
    const at = pair.indexOf('=');
    const key = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
    const value = decodeURIComponent(at < 0 ? '' : pair.slice(at + 1));
    if (key === 'target_session_attrs') {
      if (!SESSION_ATTRS.includes(value as SessionAttrs)) throw invalid(`target_session_attrs '${value}' is not one of ${SESSION_ATTRS.join(', ')}`);
      targetSessionAttrs = value as SessionAttrs;
    } else if (key === 'load_balance_hosts') {
      if (value !== 'disable' && value !== 'random') throw invalid(`load_balance_hosts '${value}' is not disable or random`);
      loadBalance = value === 'random';
    } else {
      kept.push(pair);
    }
  }
  const hostnames = hostlist.split(',');
  const single = hostnames.length === 1 && targetSessionAttrs === 'any' && !loadBalance && kept.length === query.split('&').filter(Boolean).length;
  if (single) return { hosts: [{ label: hostlist || 'localhost', url }], targetSessionAttrs, loadBalance };
  const suffix = `${pathPart}${kept.length ? `?${kept.join('&')}` : ''}`;
  const hosts = hostnames.map((host) => {
    if (host === '') throw invalid(`an empty host in '${hostlist}'`);
    return { label: host, url: `${scheme}${userinfo !== undefined ? `${userinfo}@` : ''}${host}${suffix}` };
  });
  return { hosts, targetSessionAttrs, loadBalance };
}

/** Whether a server of this kind fits the attributes; prefer-standby takes a primary only when no standby answers. */
export function fits(attrs: SessionAttrs, standby: boolean, fallback: boolean): boolean {
  switch (attrs) {
    case 'read-write':
    case 'primary':
      return !standby;
    case 'read-only':
    case 'standby':
      return standby;
    case 'prefer-standby':
      return standby || fallback;
    default:
      return true;
  }
}

interface HostState {
  host: StoreHost;
  /** Passed over until then (it failed, or is of the wrong kind). */
  skipUntil: number;
  /** What it was when last connected to: a standby (in recovery) or not. */
  standby?: boolean;
}

/** The servers of one store and which one new connections go to. */
export class Hosts {
  readonly attrs: SessionAttrs;
  private readonly states: HostState[];
  private current = 0;

  constructor(parsed: ParsedStoreUrl, private readonly now: () => number = Date.now) {
    this.attrs = parsed.targetSessionAttrs;
    const order = parsed.hosts.map((host) => ({ host, skipUntil: 0 }));
    if (parsed.loadBalance) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
    }
    this.states = order;
  }

  get count(): number {
    return this.states.length;
  }

  /** The server the next connection goes to: the current one unless passed over, else the next in order not passed over. */
  pick(): { index: number; host: StoreHost } {
    const now = this.now();
    const usable = (state: HostState): boolean => state.skipUntil <= now;
    // prefer-standby: a server known to be a primary waits while another may be a standby.
    const preferred = (state: HostState): boolean => usable(state) && !(this.attrs === 'prefer-standby' && state.standby === false);
    for (const test of [preferred, usable]) {
      for (let step = 0; step < this.states.length; step++) {
        const index = (this.current + step) % this.states.length;
        if (test(this.states[index])) return { index, host: this.states[index].host };
      }
    }
    // All passed over: the one passed over the longest ago.
    let index = 0;
    for (let i = 1; i < this.states.length; i++) if (this.states[i].skipUntil < this.states[index].skipUntil) index = i;
    return { index, host: this.states[index].host };
  }

  /** A connection to `index` could not be made, or its server stopped answering: passed over for a while. */
  failed(index: number): void {
    this.states[index].skipUntil = this.now() + BACKOFF_MS;
    if (this.current === index) this.current = (index + 1) % this.states.length;
  }

  /**
   * A connection to `index` reached a server of this kind. Returns whether it fits target_session_attrs (prefer-standby
   * takes a primary once every server was tried and none is a standby); one that does not is passed over.
   */
  connected(index: number, standby: boolean): boolean {
    const state = this.states[index];
    state.standby = standby;
    const now = this.now();
    const noStandby = this.states.every((other) => other === state || other.standby === false || other.skipUntil > now);
    if (fits(this.attrs, standby, noStandby)) {
      state.skipUntil = 0;
      this.current = index;
      return true;
    }
    this.failed(index);
    return false;
  }

  /** host:port of the server `index`, as the URL writes it. */
  label(index: number): string {
    return this.states[index].host.label;
  }

  /** Why a connection was refused, for the error a request gets. */
  refusal(index: number, standby: boolean): string {
    return `${this.states[index].host.label} is ${standby ? 'a standby' : 'a primary'}, and target_session_attrs is ${this.attrs}`;
  }
}
