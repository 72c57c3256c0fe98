// The npm MCP client (@modelcontextprotocol/sdk, pinned by package-lock.json)
// against tent-tools mcp, so that a second SDK agrees with the Go one. Run by
// the Go test TestNodeClient (mcp/node_test.go):
//
//   node client.mjs stdio BINARY PROJECT_DIR
//   node client.mjs http URL TOKEN
//
// It lists the tools, writes a file, reads it back, and prints what it saw
// as one JSON object on stdout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, a, b] = process.argv.slice(2);
let transport;
if (mode === 'stdio') {
  transport = new StdioClientTransport({ command: a, args: ['mcp', '-C', b, '--caller', 'node'] });
} else if (mode === 'http') {
  transport = new StreamableHTTPClientTransport(new URL(a), {
    requestInit: { headers: { Authorization: `Bearer ${b}` } },
  });
} else {
  console.error('usage: node client.mjs stdio BINARY DIR | http URL TOKEN');
  process.exit(2);
}

const client = new Client({ name: 'node-agent', version: '1.0.0' });
await client.connect(transport);
const { tools } = await client.listTools();
// callTool holds structuredContent to the tool's outputSchema (and throws
// where it does not fit).
const write = await client.callTool({
  name: 'write',
  arguments: { path: 'lib/fromNode.ts', text: 'export const fromNode = 1\n' },
});
const read = await client.callTool({ name: 'read', arguments: { path: 'lib/fromNode.ts' } });
const bad = await client.callTool({ name: 'read', arguments: { path: '../outside.ts' } });
console.log(JSON.stringify({
  protocol: transport.protocolVersion ?? null,
  tools: tools.map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint ?? null, output: !!t.outputSchema })),
  write: { isError: !!write.isError, structured: write.structuredContent },
  read: { isError: !!read.isError, structured: read.structuredContent },
  bad: { isError: !!bad.isError, text: bad.content?.[0]?.text, structured: bad.structuredContent },
}));
await client.close();
