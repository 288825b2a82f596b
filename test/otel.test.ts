// `run --otel FILE` (lib/report/otel.ts): a certification of the reference host written as OTLP
// JSON logs, read back. The file is exactly what OpenTelemetry's own packages make of its
// records — each record is re-emitted through the logs SDK and the whole is re-encoded by the
// OTLP transformer, and the two texts must agree — and every record is checked: one per
// `eval.scored` the host sent in each observed run (read again from the host here), mapped as
// RFC 0244 §E says, and one per row of the JSON report.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyValue, LogAttributes } from '@opentelemetry/api-logs';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { createClient, readRunEvents } from '../lib/client/index.ts';
import type { RunReport } from '../lib/report/model.ts';
import { EVALUATION_EVENT, SOURCE_ATTRIBUTE } from '../lib/report/otel.ts';

/** OTLP JSON as the transformer writes it (opentelemetry-proto, JSON encoding). */
interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpLogRecord {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  eventName?: string;
  attributes: OtlpKeyValue[];
}
interface OtlpRequest {
  resourceLogs: Array<{
    resource: { attributes: OtlpKeyValue[] };
    scopeLogs: Array<{ scope: { name: string; version?: string }; logRecords: OtlpLogRecord[] }>;
  }>;
}

function decodeValue(value: OtlpValue): AnyValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  if (value.kvlistValue !== undefined) return attributesOf(value.kvlistValue.values ?? []);
  throw new Error(`an OTLP value of no known kind: ${JSON.stringify(value)}`);
}
function attributesOf(list: readonly OtlpKeyValue[]): LogAttributes {
  return Object.fromEntries(list.map(({ key, value }) => [key, decodeValue(value)]));
}
/** Nanoseconds since the epoch as the SDK's [seconds, nanoseconds]. */
const hrTime = (nanos: string): [number, number] => [Number(BigInt(nanos) / 1_000_000_000n), Number(BigInt(nanos) % 1_000_000_000n)];

/** The request re-made by the logs SDK from the records read, and encoded by the OTLP transformer. */
async function reencoded(request: OtlpRequest): Promise<unknown> {
  expect(request.resourceLogs).toHaveLength(1);
  const [resourceLogs] = request.resourceLogs;
  expect(resourceLogs!.scopeLogs).toHaveLength(1);
  const [scopeLogs] = resourceLogs!.scopeLogs;
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes(attributesOf(resourceLogs!.resource.attributes) as Record<string, string>),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  const logger = provider.getLogger(scopeLogs!.scope.name, scopeLogs!.scope.version);
  for (const record of scopeLogs!.logRecords) {
    logger.emit({
      eventName: record.eventName,
      timestamp: hrTime(record.timeUnixNano),
      observedTimestamp: hrTime(record.observedTimeUnixNano),
      attributes: attributesOf(record.attributes),
    });
  }
  await provider.forceFlush();
  const text = new TextDecoder().decode(JsonLogsSerializer.serializeRequest(exporter.getFinishedLogRecords()));
  await provider.shutdown();
  return JSON.parse(text);
}

const dir = mkdtempSync(join(tmpdir(), 'owec-otel-'));
let host: Awaited<ReturnType<typeof startReferenceHost>>;
let request: OtlpRequest;
let report: RunReport;
beforeAll(async () => {
  host = await startReferenceHost({ log: () => {} });
  // Without a tenant-B key, so one row is blocked: a record with no score value.
  const run = await cli(
    'run',
    '--base-url',
    host.baseUrl,
    '--api-key',
    host.tenants.a.apiKey,
    '--filter',
    'trials-per-task|summary-served|fixtures-valid|tenant-scoped',
    '--otel',
    join(dir, 'otel.json'),
    '--report-json',
    join(dir, 'report.json'),
  );
  expect(run.code, run.err).toBe(1);
  request = JSON.parse(readFileSync(join(dir, 'otel.json'), 'utf8')) as OtlpRequest;
  report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
});
afterAll(async () => {
  await host?.close();
});

describe('run --otel', () => {
  it('writes what the OpenTelemetry logs SDK and OTLP transformer make of its records, byte for byte in meaning', async () => {
    expect(await reencoded(request)).toEqual(request);
    const resource = attributesOf(request.resourceLogs[0]!.resource.attributes);
    expect(resource).toMatchObject({ 'service.name': 'openwop-eval-conformance', 'openwop.target.base_url': host.baseUrl });
  });

  it('has one gen_ai.evaluation.result record per eval.scored of each observed run, mapped as RFC 0244 §E says', async () => {
    const records = request.resourceLogs[0]!.scopeLogs[0]!.logRecords.map(
      (record): Record<string, unknown> => ({ eventName: record.eventName, ...attributesOf(record.attributes) }),
    );
    const fromHost = records.filter((record) => record[SOURCE_ATTRIBUTE] === 'host');
    const runIds = [...new Set(fromHost.map((record) => record['openwop.run.id'] as string))];
    expect(runIds.length).toBeGreaterThan(0);
    const client = createClient({ baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey });
    let scoredCount = 0;
    for (const runId of runIds) {
      const read = await readRunEvents(client, runId, { deadlineMs: 10_000 });
      expect(read.ok).toBe(true);
      const scored = read.events.filter((event) => event.type === 'eval.scored');
      scoredCount += scored.length;
      const ofRun = fromHost.filter((record) => record['openwop.run.id'] === runId);
      expect(ofRun).toHaveLength(scored.length);
      const suiteId = ofRun[0]!['openwop.suite.id'] as string;
      for (const [index, event] of scored.entries()) {
        const payload = event.payload as { taskId: string; score: number; scoreLabel?: string; evaluatorType?: string; trialIndex?: number; passed: boolean };
        expect(ofRun[index]).toEqual({
          eventName: EVALUATION_EVENT,
          'gen_ai.evaluation.name': `${suiteId}/${payload.taskId}`,
          'gen_ai.evaluation.score.value': payload.score,
          ...(payload.scoreLabel === undefined ? {} : { 'gen_ai.evaluation.score.label': payload.scoreLabel }),
          ...(payload.evaluatorType === undefined ? {} : { 'gen_ai.evaluation.evaluator.type': payload.evaluatorType }),
          [SOURCE_ATTRIBUTE]: 'host',
          'openwop.suite.id': suiteId,
          'openwop.task.id': payload.taskId,
          ...(payload.trialIndex === undefined ? {} : { 'openwop.trial.index': payload.trialIndex }),
          'openwop.run.id': runId,
          'openwop.eval.passed': payload.passed,
          'openwop.event.sequence': event.sequence,
        });
        // Content-free (RFC 0244 §E, §H): no explanation from a host.
        expect(ofRun[index]).not.toHaveProperty('gen_ai.evaluation.explanation');
      }
    }
    expect(fromHost).toHaveLength(scoredCount);
  });

  it('has one record per row of the JSON report, its disposition the label', () => {
    const records = request.resourceLogs[0]!.scopeLogs[0]!.logRecords.map(
      (record): Record<string, unknown> => ({ eventName: record.eventName, ...attributesOf(record.attributes) }),
    );
    const fromHarness = records.filter((record) => record[SOURCE_ATTRIBUTE] === 'harness');
    expect(fromHarness.map((record) => record['openwop.requirement.id'])).toEqual(report.rows.map((row) => row.id));
    expect(new Set(report.rows.map((row) => row.result))).toContain('blocked');
    for (const [index, row] of report.rows.entries()) {
      const record = fromHarness[index]!;
      expect(record.eventName).toBe(EVALUATION_EVENT);
      expect(record['gen_ai.evaluation.name']).toBe(row.id);
      expect(record['gen_ai.evaluation.score.label']).toBe(row.result);
      expect(record['gen_ai.evaluation.evaluator.type']).toBe('deterministic');
      const executed = row.result === 'executed-pass' || row.result === 'executed-fail';
      expect(record['gen_ai.evaluation.score.value']).toBe(executed ? (row.result === 'executed-pass' ? 1 : 0) : undefined);
      expect(record['openwop.requirement.clause']).toBe(row.clause);
      expect(record['openwop.requirement.assertions']).toBe(row.assertions ?? 0);
      if (row.result !== 'executed-pass') expect(record['gen_ai.evaluation.explanation']).toBe(row.detail);
    }
  });

  it('carries no API key', () => {
    const text = readFileSync(join(dir, 'otel.json'), 'utf8');
    expect(text).not.toContain(host.tenants.a.apiKey);
    expect(text).not.toContain(host.tenants.b.apiKey);
  });
});
