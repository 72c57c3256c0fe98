// A client on vscode-languageserver-protocol, as VS Code's, run by
// lsp/node_test.go: node client.js BINARY PROJECT SCENARIO. It starts
// `BINARY lsp`, runs the scenario, prints "OK" and exits 0, or prints what
// failed and exits 1.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol/node');

const [binary, root, scenario] = process.argv.slice(2);

function fail(msg) {
  console.log('FAIL: ' + msg);
  process.exit(1);
}
function check(cond, msg) { if (!cond) fail(msg); }
const uri = (rel) => url.pathToFileURL(path.join(root, rel)).href;
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
function pos(text, needle, shift) {
  const off = text.indexOf(needle) + (shift || 0);
  check(off >= shift, 'no ' + needle);
  const before = text.slice(0, off);
  const line = before.split('\n').length - 1;
  return { line, character: off - (before.lastIndexOf('\n') + 1) };
}

const server = cp.spawn(binary, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = lsp.createProtocolConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));

const published = [];      // every publishDiagnostics, in order
const progress = [];       // every $/progress
const tokens = [];         // tokens the server made
const changed = [];        // tent/changed
let answer = null;         // the answer to window/showMessageRequest
conn.onNotification('textDocument/publishDiagnostics', (p) => published.push(p));
conn.onNotification('$/progress', (p) => progress.push(p));
conn.onNotification('tent/changed', (p) => changed.push(p));
conn.onNotification('window/showMessage', () => {});
conn.onRequest('window/workDoneProgress/create', (p) => { tokens.push(p.token); return null; });
conn.onRequest('window/showMessageRequest', async () => {
  if (typeof answer === 'function') return answer();
  return answer;
});
conn.onRequest('workspace/applyEdit', () => ({ applied: true }));
conn.onRequest('client/registerCapability', () => null);
conn.listen();

function waitFor(what, cond, ms) {
  return new Promise((resolve) => {
    const start = Date.now();
    const tick = () => {
      const v = cond();
      if (v) return resolve(v);
      if (Date.now() - start > (ms || 20000)) fail('timed out waiting for ' + what);
      setTimeout(tick, 10);
    };
    tick();
  });
}

async function initialize(options, resourceOperations) {
  const caps = {
    general: { positionEncodings: ['utf-16'] },
    workspace: { workspaceEdit: { documentChanges: true, resourceOperations: resourceOperations === undefined ? ['create', 'rename', 'delete'] : resourceOperations } },
    textDocument: { publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true, dataSupport: true } },
    window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: false } } },
  };
  const res = await conn.sendRequest(lsp.InitializeRequest.type, { processId: process.pid, rootUri: uri(''), capabilities: caps, initializationOptions: options });
  conn.sendNotification(lsp.InitializedNotification.type, {});
  return res;
}

function open(rel) {
  const text = read(rel);
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: uri(rel), languageId: 'typescript', version: 1, text } });
  return text;
}

const diagnosticsOf = (rel, version) => waitFor(rel + ' v' + version, () => published.find((p) => p.uri === uri(rel) && p.version === version));

const scenarios = {
  // Versioned diagnostics, incremental sync, progress tokens.
  async diagnostics() {
    await initialize({ diagnosticDelay: 300 });
    const text = open('tables/orders.ts');
    await diagnosticsOf('tables/orders.ts', 1);
    const at = pos(text, "ref('users')", 9);
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uri('tables/orders.ts'), version: 2 },
      contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: 'z' }],
    });
    const v2 = await diagnosticsOf('tables/orders.ts', 2);
    const d = v2.diagnostics.find((x) => x.code === 'T2003');
    check(d && d.source === 'tent' && d.codeDescription && d.data && d.data.fix, 'v2 diagnostics: ' + JSON.stringify(v2));
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uri('tables/orders.ts'), version: 3 },
      contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: 's' }],
    });
    const v3 = await diagnosticsOf('tables/orders.ts', 3);
    check(v3.diagnostics.length === 0, 'v3 still has ' + JSON.stringify(v3.diagnostics));
    // A burst of changes within the delay: one publication, of the last
    // version (4 to 8 alternate z and s; 8 leaves userz).
    const before = published.length;
    for (let v = 4; v <= 8; v++) {
      conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
        textDocument: { uri: uri('tables/orders.ts'), version: v },
        contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: v % 2 === 0 ? 'z' : 's' }],
      });
    }
    const v8 = await diagnosticsOf('tables/orders.ts', 8);
    check(v8.diagnostics.some((x) => x.code === 'T2003'), 'v8 diagnostics: ' + JSON.stringify(v8));
    const early = published.slice(before).filter((p) => p.uri === uri('tables/orders.ts') && p.version !== 8);
    check(early.length === 0, 'publications of earlier versions in a burst: ' + JSON.stringify(early.map((p) => p.version)));
    check(tokens.length > 0, 'no progress token was made');
    check(progress.some((p) => p.token === tokens[0] && p.value.kind === 'begin'), 'no begin of ' + tokens[0]);
    check(progress.some((p) => p.token === tokens[0] && p.value.kind === 'report' && p.value.percentage === 100), 'no report of the whole first index on ' + tokens[0]);
    check(progress.some((p) => p.token === tokens[0] && p.value.kind === 'end'), 'no end of ' + tokens[0]);
  },

  // Server mode: a dirty buffer refuses; clean, the engine writes and the
  // edit covers the open buffer only.
  async server() {
    await initialize({ writes: 'server' });
    const text = open('tables/orders.ts');
    const params = { textDocument: { uri: uri('tables/orders.ts') }, position: pos(text, 'buyer:', 1), newName: 'customer' };
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: uri('tables/orders.ts'), version: 2 }, contentChanges: [{ text: text + '// unsaved\n' }] });
    try {
      await conn.sendRequest(lsp.RenameRequest.type, params);
      fail('a dirty buffer did not refuse');
    } catch (e) {
      check(/^T9120: .*tables\/orders.ts/.test(e.message) && e.data && e.data.code === 'T9120', 'refusal: ' + e.message);
    }
    check(read('tables/orders.ts') === text, 'a refused rename wrote');
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: uri('tables/orders.ts'), version: 3 }, contentChanges: [{ text }] });
    const edit = await conn.sendRequest(lsp.RenameRequest.type, params);
    check(edit.documentChanges.length === 1 && edit.documentChanges[0].textDocument.uri === uri('tables/orders.ts') && edit.documentChanges[0].textDocument.version === 3,
      'server-mode edit: ' + JSON.stringify(edit));
    check(edit.documentChanges[0].edits[0].newText === read('tables/orders.ts'), 'the edit is not the disk text');
    check(read('testdata/orders.json').includes('"customer"'), 'the engine did not write the closed test data file');
    await waitFor('tent/changed', () => changed.find((c) => c.point !== null));
  },

  // A client without resource operations: text edits, and the moves named.
  async noresources() {
    await initialize({}, []);
    const text = open('tables/orders.ts');
    const edit = await conn.sendRequest(lsp.RenameRequest.type, { textDocument: { uri: uri('tables/orders.ts') }, position: pos(text, 'orders = table', 1), newName: 'purchases' });
    check(!edit.documentChanges.some((c) => c.kind), 'operations for a client without them: ' + JSON.stringify(edit));
    check(fs.existsSync(path.join(root, 'testdata/orders.json')), 'the server moved a file in client mode');
  },

  // Cancel a slow request by its numeric id: it answers -32800 and the
  // session goes on.
  async cancel() {
    let release;
    answer = () => new Promise((r) => { release = r; });
    await initialize({ policy: { ask: ['rename:column'] } });
    const text = open('tables/orders.ts');
    const source = new rpc.CancellationTokenSource();
    const pending = conn.sendRequest(lsp.RenameRequest.type, { textDocument: { uri: uri('tables/orders.ts') }, position: pos(text, 'buyer:', 1), newName: 'customer' }, source.token);
    await waitFor('the question', () => release);
    source.cancel(); // vscode-jsonrpc sends $/cancelRequest with the numeric id
    try {
      await pending;
      fail('a cancelled rename answered');
    } catch (e) {
      check(e.code === -32800, 'cancelled rename: ' + e.code + ' ' + e.message);
    }
    release({ title: 'Yes' });
    const hover = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri: uri('tables/orders.ts') }, position: pos(text, 'total', 1) });
    check(hover && hover.contents.value.includes('orders.total'), 'hover after the cancel: ' + JSON.stringify(hover));
  },

  // tent/call and its errors.
  async call() {
    await initialize({});
    const ans = await conn.sendRequest('tent/call', { tool: 'map', input: {} });
    check(ans.text.length > 0 && ans.data.files.length > 0, 'map: ' + JSON.stringify(ans).slice(0, 200));
    try {
      await conn.sendRequest('tent/call', { tool: 'read', input: { path: '../outside' } });
      fail('read of ../outside answered');
    } catch (e) {
      check(/^T9105: /.test(e.message) && e.data.code === 'T9105', 'read ../outside: ' + e.message);
    }
    try {
      await conn.sendRequest('tent/call', { tool: 'rename', input: { name: 'orders.buyer' } });
      fail('rename without to answered');
    } catch (e) {
      check(/^T9102: /.test(e.message) && e.data.field === undefined ? e.data.data.field === 'to' : true, 'rename without to: ' + e.message);
    }
    const cmd = await conn.sendRequest(lsp.ExecuteCommandRequest.type, { command: 'tent.call', arguments: ['history', {}] });
    check(Array.isArray(cmd.data.points), 'tent.call history: ' + JSON.stringify(cmd));
  },
};

(async () => {
  const run = scenarios[scenario];
  if (!run) fail('no scenario ' + scenario);
  await run();
  await conn.sendRequest(lsp.ShutdownRequest.type);
  conn.sendNotification(lsp.ExitNotification.type);
  server.on('exit', (code) => {
    if (code !== 0) fail('the server exited with ' + code);
    console.log('OK');
    process.exit(0);
  });
})().catch((e) => fail(e.stack || String(e)));
