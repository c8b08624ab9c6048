import type { StatusResponse } from '../../schemas/status.js';
import { markdownTable } from './markdown.js';

export function statusMarkdown(status: StatusResponse): string {
  const { index } = status;
  const lines = [
    `# plumb ${status.version} — ${status.ready ? 'ready' : 'building the index'}`,
    '',
    `Root: \`${status.root}\``,
    `Index: ${index.state}, ${index.filesIndexed}/${index.filesTotal} files, ${index.symbols} symbols${pendingText(index)}`,
    `Word index: ${index.words.state}, ${index.words.files} files covered`,
    storeLine(status.store),
    ...notIndexedLines(index.notIndexed),
    '',
    markdownTable(
      ['Language', 'State', 'Progress', 'PID', 'Restarts', 'Command'],
      status.servers.map((s) => [
        s.language,
        s.state,
        s.progress ? `${s.progress.percent !== undefined ? `${Math.round(s.progress.percent)}% ` : ''}${s.progress.message ?? s.progress.title ?? ''}`.trim() : '',
        s.pid === null ? '' : String(s.pid),
        String(s.restarts),
        s.command,
      ]),
    ),
  ];
  for (const server of status.servers) {
    if (server.lastError) lines.push('', `${server.language} ${server.state}: ${server.lastError}`);
    if (server.compileDatabase) {
      lines.push('', `compile_commands.json for ${server.language}: \`${server.compileDatabase.path}\`${server.compileDatabase.synthesized ? ' (synthesized by plumb)' : ''}`);
    }
  }
  return lines.join('\n') + '\n';
}

function storeLine(store: StatusResponse['store']): string {
  const where = `Store: ${store.backend} \`${store.location}\`${store.workspace ? `, workspace \`${store.workspace}\`` : ''}${store.readOnly ? ', read-only replica' : ''}`;
  if (!store.reachable) return `${where} — UNREACHABLE: ${store.error ?? 'no answer'}`;
  const updated = store.lastUpdate ? `, last update ${store.lastUpdate}` : '';
  return `${where}, schema ${store.schemaVersion}, version ${store.version}${updated}${store.behind > 0 ? `, ${store.behind} write(s) behind` : ''}${replicationText(store.replication)}`;
}

/** A hot standby's replication: streaming or not, its replay lag, and its primary's version. */
function replicationText(replication: StatusResponse['store']['replication']): string {
  if (!replication) return '';
  const primary = replication.primary ? ` from ${replication.primary}` : '';
  const version = replication.primaryVersion !== null ? `, primary at version ${replication.primaryVersion}` : replication.primaryError ? ` (primary: ${replication.primaryError})` : '';
  return `\nReplication: hot standby, ${replication.streaming ? 'streaming' : 'NOT streaming'}${primary}, replay lag ${replication.replayLagMs} ms${version}`;
}

/** What the index leaves out: counts by reason, then each listed path with why. */
function notIndexedLines(notIndexed: StatusResponse['index']['notIndexed']): string[] {
  if (!notIndexed || notIndexed.total === 0) return [];
  const reasons = Object.entries(notIndexed.byReason).map(([reason, n]) => `${n} ${reason}`).join(', ');
  const listed = notIndexed.paths.map((entry) => `- \`${entry.path}${entry.kind === 'directory' ? '/' : ''}\` (${entry.reason}): ${entry.detail}`);
  const more = notIndexed.total > notIndexed.paths.length ? [`- and ${notIndexed.total - notIndexed.paths.length} more`] : [];
  return ['', `Not indexed: ${notIndexed.total} (${reasons})`, ...listed, ...more];
}

function pendingText(index: StatusResponse['index']): string {
  if (index.pendingChanges === 0) return '';
  return `, ${index.pendingChanges} change(s) not indexed yet${index.pendingError ? ` (retrying: ${index.pendingError})` : ''}`;
}
