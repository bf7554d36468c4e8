#!/usr/bin/env node
// A real MCP client for the launcher's ITs: the official TypeScript SDK (@modelcontextprotocol/sdk, from the
// repo's npm folder bench/node_modules), driven by the Java test one JSON command per stdin line. Each command
// is answered with one JSON line {id, ok, result | error}; what the server sends on its own (elicitation
// requests, progress, tools/list_changed) is reported as {event, params} lines. It never decides anything
// about the host: it only does what the test asks, as an MCP client application would.
//
// Commands: connect {transport: "stdio", command, args, env?, cwd?, elicitation: bool}
//                   {transport: "http", url, token?, elicitation: bool}
//           answer {action: "accept" | "decline" | "cancel", content?}   (how to answer the next elicitations)
//           listTools {}
//           call {name, arguments, progress: bool, cancelOnProgress: bool, timeoutMs?}
//           close {}
// Usage: node mcp-driver.mjs NPM_DIR   (NPM_DIR holds node_modules/@modelcontextprotocol/sdk)

import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

const npmDir = process.argv[2];
if (!npmDir) {
  console.error('usage: mcp-driver.mjs NPM_DIR');
  process.exit(2);
}
let sdk;
try {
  const require = createRequire(join(npmDir, 'package.json'));
  sdk = {
    ...require('@modelcontextprotocol/sdk/client/index.js'),
    ...require('@modelcontextprotocol/sdk/client/stdio.js'),
    ...require('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ...require('@modelcontextprotocol/sdk/types.js'),
  };
} catch (e) {
  console.error(`mcp-driver: @modelcontextprotocol/sdk is not installed in ${npmDir}/node_modules`
    + ` (run: npm ci --prefix bench): ${e.message}`);
  process.exit(3);
}

const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
let client = null;
let transport = null;
let answer = { action: 'decline' };

async function connect(c) {
  const capabilities = c.elicitation ? { elicitation: {} } : {};
  client = new sdk.Client({ name: 'pi-host-it', version: '1.0.0' }, { capabilities });
  if (c.elicitation) {
    client.setRequestHandler(sdk.ElicitRequestSchema, async (request) => {
      out({ event: 'elicitation', params: request.params });
      return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action };
    });
  }
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => out({ event: 'toolsChanged' }));
  if (c.transport === 'stdio') {
    transport = new sdk.StdioClientTransport({
      command: c.command, args: c.args, env: { ...process.env, ...(c.env || {}) }, cwd: c.cwd, stderr: 'inherit',
    });
  } else {
    const headers = c.token ? { Authorization: `Bearer ${c.token}` } : {};
    transport = new sdk.StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers } });
  }
  await client.connect(transport);
  return { serverInfo: client.getServerVersion(), capabilities: client.getServerCapabilities(),
    sessionId: transport.sessionId ?? null };
}

async function call(c) {
  const controller = new AbortController();
  const options = { signal: controller.signal, timeout: c.timeoutMs ?? 120000 };
  if (c.progress || c.cancelOnProgress) {
    options.onprogress = (p) => {
      out({ event: 'progress', params: p });
      if (c.cancelOnProgress) controller.abort('the test cancels on the first output');
    };
  }
  return await client.callTool({ name: c.name, arguments: c.arguments }, undefined, options);
}

const ops = {
  connect,
  answer: async (c) => { answer = c; return {}; },
  listTools: async () => await client.listTools(),
  call,
  close: async () => { await client.close(); return {}; },
};

const lines = createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  let c;
  try { c = JSON.parse(line); } catch { out({ id: null, ok: false, error: `not JSON: ${line}` }); return; }
  const op = ops[c.op];
  if (!op) { out({ id: c.id, ok: false, error: `unknown op ${c.op}` }); return; }
  try {
    out({ id: c.id, ok: true, result: await op(c) });
  } catch (e) {
    out({ id: c.id, ok: false, error: String(e && e.message || e), code: e && e.code });
  }
});
lines.on('close', async () => {
  try { if (client) await client.close(); } catch { /* gone */ }
  process.exit(0);
});
