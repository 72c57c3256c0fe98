// The peer of `tent-tools run` in peers.sh: node running the same bundled
// code. It takes the bundle esbuild made for tent-tools (.tent/cache of the
// project) and calls one function of it with a ctx whose db reads the test
// database (.tent/test.db) through sql.js, as tent-tools' runner reads it
// through SQLite: a whole process, from start to the result printed.
//
//   node noderun.mjs PROJECT ENTRY NAME INPUT SQLJS
//   node noderun.mjs ./project functions/accounts2.ts listAccounts2 '{"limit":10}' ./peer/node_modules/sql.js
//
// Only the ctx.db reads the bench's functions use are there: all, where and
// get, with limit and order.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [project, entry, name, inputText, sqljs] = process.argv.slice(2);
const key = createHash('sha256').update(entry).digest('hex').slice(0, 24);
const cached = JSON.parse(readFileSync(join(project, '.tent', 'cache', `bundle-${key}.json`), 'utf8'));
const exported = new Function(`${cached.bundle.code}\n;return __tent_exports;`)();
const def = exported[name];
if (!def || typeof def.run !== 'function') {
  throw new Error(`${entry} exports no function ${name}`);
}

const initSqlJs = createRequire(import.meta.url)(sqljs);
const SQL = await initSqlJs();
const file = readFileSync(join(project, '.tent', 'test.db'));
file[18] = 1; // tent-tools keeps the file in WAL mode; sql.js reads it whole, in memory
file[19] = 1;
const db = new SQL.Database(file);

const quote = (s) => `"${String(s).replaceAll('"', '""')}"`;
function select(table, match, opts = {}) {
  const where = Object.keys(match);
  let sql = `SELECT * FROM ${quote(table)}`;
  if (where.length) sql += ` WHERE ${where.map((k) => `${quote(k)} = ?`).join(' AND ')}`;
  if (opts.order) sql += ` ORDER BY ${quote(opts.order)}`;
  if (opts.limit) sql += ` LIMIT ${Number(opts.limit)}`;
  const stmt = db.prepare(sql);
  stmt.bind(where.map((k) => match[k]));
  const rows = [];
  while (stmt.step()) rows.push(stmt.getAsObject());
  stmt.free();
  return rows;
}
const tables = new Proxy({}, {
  get: (_, table) => ({
    all: async (opts) => select(table, {}, opts),
    where: async (match, opts) => select(table, match, opts),
    get: async (id) => select(table, { id })[0] ?? null,
  }),
});
const logged = [];
const ctx = { db: tables, user: null, log: (...args) => logged.push(args.join(' ')), now: () => new Date().toISOString() };
const result = await def.run(ctx, JSON.parse(inputText || '{}'));
console.log(JSON.stringify({ result, logged }));
