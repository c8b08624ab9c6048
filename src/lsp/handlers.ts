import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ApplyWorkspaceEditRequest,
  CodeLensRefreshRequest,
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  InlayHintRefreshRequest,
  InlineValueRefreshRequest,
  LogMessageNotification,
  RegistrationRequest,
  SemanticTokensRefreshRequest,
  ShowMessageRequest,
  UnregistrationRequest,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  type ProtocolConnection,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node.js';

export interface ServerRequestHandlers {
  /** The language's settings, answered to workspace/configuration by section. */
  settings: unknown;
  root: string;
  /** A work-done progress report of a token the server created. */
  onProgress(token: string | number, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void;
  /** A window/logMessage line. */
  onLog(message: string): void;
}

/**
 * Answers what a server asks its client: configuration, workspace folders, progress tokens,
 * (un)registration, refreshes and edits (refused: plumb does not edit files).
 */
export function answerServerRequests(connection: ProtocolConnection, handlers: ServerRequestHandlers): void {
  const { settings } = handlers;
  const root = pathToFileURL(handlers.root).href;
  connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => lookupSection(settings, item.section)));
  connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
    const token = params.token;
    const disposable = connection.onProgress(WorkDoneProgress.type, token, (value) => {
      handlers.onProgress(token, value);
      if (value.kind === 'end') disposable.dispose();
    });
    return null;
  });
  connection.onRequest(RegistrationRequest.type, () => undefined);
  connection.onRequest(UnregistrationRequest.type, () => undefined);
  connection.onRequest(WorkspaceFoldersRequest.type, () => [{ uri: root, name: path.basename(handlers.root) }]);
  connection.onRequest(ShowMessageRequest.type, () => null);
  connection.onRequest(ApplyWorkspaceEditRequest.type, () => ({ applied: false, failureReason: 'plumb does not edit files' }));
  for (const refresh of [SemanticTokensRefreshRequest.type, CodeLensRefreshRequest.type, InlayHintRefreshRequest.type, InlineValueRefreshRequest.type, DiagnosticRefreshRequest.type]) {
    connection.onRequest(refresh, () => undefined);
  }
  connection.onNotification(LogMessageNotification.type, (params) => handlers.onLog(params.message));
}

/** workspace/configuration answers by dotted section ("python.analysis"); the whole settings object for none. */
export function lookupSection(settings: unknown, section: string | undefined): unknown {
  if (!section) return settings ?? null;
  let value: unknown = settings;
  for (const part of section.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}
