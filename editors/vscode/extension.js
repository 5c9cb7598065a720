// planilla for VS Code: starts `planilla lsp --stdio` for PGN documents through
// vscode-languageclient. Everything else (diagnostics, quick fixes, the convert and fix
// commands, hover, outline, folding, formatting) is the server's.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

function createClient() {
  const command = vscode.workspace.getConfiguration('planilla').get('path') || 'planilla';
  // TransportKind.stdio adds `--stdio` to the arguments.
  const serverOptions = { command, args: ['lsp'], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'pgn' },
      { scheme: 'untitled', language: 'pgn' },
    ],
  };
  return new LanguageClient('planilla', 'planilla', serverOptions, clientOptions);
}

async function start() {
  client = createClient();
  try {
    await client.start();
  } catch (e) {
    const path = vscode.workspace.getConfiguration('planilla').get('path');
    vscode.window.showErrorMessage(
      `planilla: could not start '${path} lsp' (${e && e.message ? e.message : e}); ` +
        'set planilla.path to the planilla binary.',
    );
  }
}

async function stop() {
  if (client) {
    const c = client;
    client = undefined;
    if (c.isRunning()) {
      await c.stop();
    }
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('planilla.restartServer', async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('planilla.path')) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
