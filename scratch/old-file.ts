// An sqlite file written before tool_calls had answered_by is opened, and a call with it is stored and read back.
import { rmSync } from 'node:fs';
import { SqliteFile } from '../hosts/reference/sqlite-file.ts';
import { SqliteStore } from '../hosts/reference/sqlite-store.ts';
const path = '/tmp/uq4-old.sqlite';
rmSync(path, { force: true });
const old = new SqliteFile(path);
old.exec(`CREATE TABLE tool_calls (run_id TEXT NOT NULL, sequence INTEGER NOT NULL, agent_id TEXT NOT NULL, depth INTEGER NOT NULL,
  tool_name TEXT NOT NULL, inputs TEXT NOT NULL, outcome TEXT, error TEXT, status TEXT NOT NULL, PRIMARY KEY (run_id, sequence));
  INSERT INTO tool_calls VALUES ('r', 1, 'a', 0, 't', '{}', '1', NULL, 'ok');`);
old.close();
const store = new SqliteStore(path);
store.insertToolCall('r', { sequence: 3, agentId: 'a', depth: 0, toolName: 't', inputs: {}, outcome: 2, status: 'ok', answeredBy: 'fixture' });
console.log(JSON.stringify(store.listToolCalls('r')));
store.close();
const again = new SqliteStore(path);
console.log(JSON.stringify(again.listToolCalls('r')));
again.close();
