import { MarkupKind, SymbolKind, SymbolTag, type ClientCapabilities } from 'vscode-languageserver-protocol';

const ALL_SYMBOL_KINDS = Object.values(SymbolKind).filter((value): value is SymbolKind => typeof value === 'number');

/** Everything plumb asks of servers, declared so servers send their richest answers (hierarchical symbols, links, markdown). */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: {
    positionEncodings: ['utf-16'],
    staleRequestSupport: { cancel: true, retryOnContentModified: [] },
  },
  window: {
    workDoneProgress: true,
    showMessage: { messageActionItem: { additionalPropertiesSupport: false } },
    showDocument: { support: false },
  },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: false },
    didChangeWatchedFiles: { dynamicRegistration: false },
    symbol: { dynamicRegistration: false, symbolKind: { valueSet: ALL_SYMBOL_KINDS }, tagSupport: { valueSet: [SymbolTag.Deprecated] } },
    applyEdit: false,
    workspaceEdit: { documentChanges: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false, willSaveWaitUntil: false },
    documentSymbol: {
      dynamicRegistration: false,
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: ALL_SYMBOL_KINDS },
      tagSupport: { valueSet: [SymbolTag.Deprecated] },
      labelSupport: true,
    },
    hover: { dynamicRegistration: false, contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
    references: { dynamicRegistration: false },
    definition: { dynamicRegistration: false, linkSupport: true },
    declaration: { dynamicRegistration: false, linkSupport: true },
    typeDefinition: { dynamicRegistration: false, linkSupport: true },
    implementation: { dynamicRegistration: false, linkSupport: true },
    typeHierarchy: { dynamicRegistration: false },
    callHierarchy: { dynamicRegistration: false },
    signatureHelp: {
      dynamicRegistration: false,
      signatureInformation: { documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText], parameterInformation: { labelOffsetSupport: true }, activeParameterSupport: true },
    },
    documentHighlight: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: false },
    // Pull diagnostics, never pulled: pyright then stops type-checking each opened file before its next answer (10-20 s for flask/app.py).
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
  },
};
