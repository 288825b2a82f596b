// `run --otel FILE`: the run as OpenTelemetry logs, in the OTLP JSON encoding (an
// ExportLogsServiceRequest), built and serialised by OpenTelemetry's own JS packages: the logs
// SDK makes the records, the OTLP transformer encodes them. Every record is a
// `gen_ai.evaluation.result` event (OpenTelemetry GenAI semantic conventions, Development
// stability):
//
// - one per `eval.scored` event a host sent in the eval runs the legs observed, mapped as
//   RFC 0244 §E and its implementation note "Export" say: `gen_ai.evaluation.name` =
//   `<suiteId>/<taskId>`, `gen_ai.evaluation.score.value` = `score`,
//   `gen_ai.evaluation.score.label` = `scoreLabel`, and the provisional
//   `gen_ai.evaluation.evaluator.type` = `evaluatorType` (the last two when the host sent them),
//   with `openwop.task.id`, `openwop.trial.index`, `openwop.suite.id` and `openwop.run.id`
//   beside them. No `gen_ai.evaluation.explanation`: RFC 0244 §E leaves it out as content;
//
// - one per row of the harness's own results: the name is the requirement id, the label its
//   disposition, the value 1 or 0 for an executed row (none for a row that did not execute), the
//   evaluator `deterministic`, the explanation the row's reason, and `openwop.requirement.*`
//   attributes for its clause and failed rules.
//
// The values are the run's, already redacted (lib/redact.ts); the caller redacts the text again.

import type { LogAttributes } from '@opentelemetry/api-logs';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { writeFileSync } from 'node:fs';
import type { Io } from '../io.ts';
import { suiteIdOf, type ObservedRun } from '../ledger/observed-run.ts';

/** What the log records of one observed run. */
type ObservedRunLog = Pick<ObservedRun, 'runId' | 'fixture' | 'events'>;
import type { Redactor } from '../redact.ts';
import { displayUrl, type RunReport } from './model.ts';
import { isJsonObject } from '../json-value.ts';

export const EVALUATION_EVENT = 'gen_ai.evaluation.result';
export const SCOPE = 'openwop-eval-conformance';
/** Where a record comes from: a host's `eval.scored`, or a row of this harness. */
export const SOURCE_ATTRIBUTE = 'openwop.evaluation.source';

const MAX_EXPLANATION = 2_000;

/** The attributes of one host `eval.scored` (RFC 0244 §E); undefined for an event without a taskId or a numeric score. */
export function scoredAttributes(run: ObservedRunLog, event: ObservedRunLog['events'][number]): LogAttributes | undefined {
  const payload = isJsonObject(event.payload) ? event.payload : {};
  const { taskId, score, scoreLabel, evaluatorType, trialIndex, passed } = payload;
  if (typeof taskId !== 'string' || typeof score !== 'number') return undefined;
  return {
    'gen_ai.evaluation.name': `${suiteIdOf(run)}/${taskId}`,
    'gen_ai.evaluation.score.value': score,
    ...(typeof scoreLabel === 'string' ? { 'gen_ai.evaluation.score.label': scoreLabel } : {}),
    ...(typeof evaluatorType === 'string' ? { 'gen_ai.evaluation.evaluator.type': evaluatorType } : {}),
    [SOURCE_ATTRIBUTE]: 'host',
    'openwop.suite.id': suiteIdOf(run),
    'openwop.task.id': taskId,
    ...(typeof trialIndex === 'number' ? { 'openwop.trial.index': trialIndex } : {}),
    'openwop.run.id': run.runId,
    ...(typeof passed === 'boolean' ? { 'openwop.eval.passed': passed } : {}),
    ...(typeof event.sequence === 'number' ? { 'openwop.event.sequence': event.sequence } : {}),
  };
}

/** The attributes of one row of the harness's results. */
export function rowAttributes(row: RunReport['rows'][number]): LogAttributes {
  const executed = row.result === 'executed-pass' || row.result === 'executed-fail';
  const failedRules = Array.isArray(row.evidence?.failedRules) ? row.evidence.failedRules.filter((rule): rule is string => typeof rule === 'string') : [];
  const explanation = row.result === 'executed-pass' ? `${row.assertions ?? 0} assertions held` : (row.detail ?? 'no reason given');
  return {
    'gen_ai.evaluation.name': row.id,
    ...(executed ? { 'gen_ai.evaluation.score.value': row.result === 'executed-pass' ? 1 : 0 } : {}),
    'gen_ai.evaluation.score.label': row.result,
    'gen_ai.evaluation.evaluator.type': 'deterministic',
    'gen_ai.evaluation.explanation': explanation.length > MAX_EXPLANATION ? `${explanation.slice(0, MAX_EXPLANATION - 1)}…` : explanation,
    [SOURCE_ATTRIBUTE]: 'harness',
    'openwop.requirement.id': row.id,
    'openwop.requirement.scenario': row.scenario,
    ...(row.clause === undefined ? {} : { 'openwop.requirement.clause': row.clause }),
    ...(failedRules.length > 0 ? { 'openwop.requirement.failed_rules': failedRules } : {}),
    'openwop.requirement.assertions': row.assertions ?? 0,
  };
}

/** A timestamp of an event, when it carries an RFC 3339 one. */
function eventTime(event: ObservedRunLog['events'][number]): Date | undefined {
  if (typeof event.timestamp !== 'string') return undefined;
  const time = new Date(event.timestamp);
  return Number.isNaN(time.getTime()) ? undefined : time;
}

/** The OTLP JSON text of the run: every host `eval.scored` of `runs`, then every row of `report`. */
export async function otelLogs(report: RunReport, runs: readonly ObservedRunLog[]): Promise<string> {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({
      'service.name': SCOPE,
      'service.version': report.harnessVersion,
      ...(report.target.baseUrl === undefined ? {} : { 'openwop.target.base_url': displayUrl(report.target.baseUrl)! }),
      ...(report.target.implementation === undefined ? {} : { 'openwop.target.implementation': report.target.implementation }),
      ...(report.target.hostBuild === undefined ? {} : { 'openwop.target.host_build': report.target.hostBuild }),
    }),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  const logger = provider.getLogger(SCOPE, report.harnessVersion);
  const generated = new Date(report.generatedAt);
  for (const run of runs) {
    for (const event of run.events) {
      if (event.type !== 'eval.scored') continue;
      const attributes = scoredAttributes(run, event);
      if (attributes === undefined) continue;
      logger.emit({ eventName: EVALUATION_EVENT, timestamp: eventTime(event) ?? generated, observedTimestamp: generated, attributes });
    }
  }
  for (const row of report.rows)
    logger.emit({ eventName: EVALUATION_EVENT, timestamp: generated, observedTimestamp: generated, attributes: rowAttributes(row) });
  await provider.forceFlush();
  const records = exporter.getFinishedLogRecords();
  await provider.shutdown();
  return `${new TextDecoder().decode(JsonLogsSerializer.serializeRequest(records))}\n`;
}

/**
 * Writes `--otel FILE` (lib/report/otel.ts): the host's `eval.scored` events of the observed runs
 * and the rows, through `redactor` before and after they are encoded, as every report is.
 */
export async function writeOtelLogs(options: {
  /** `--otel FILE`; nothing is written without one. */
  path: string | undefined;
  content: RunReport;
  runs: readonly ObservedRunLog[];
  redactor: Redactor;
  io: Io;
}): Promise<boolean> {
  const { path, content, runs, redactor, io } = options;
  if (path === undefined || path === '') return true;
  try {
    writeFileSync(path, redactor.text(await otelLogs(redactor.value(content), redactor.value([...runs]))));
    return true;
  } catch (error) {
    io.err(
      redactor.text(
        `openwop-eval-conformance: cannot write the OpenTelemetry logs to ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})\n`,
      ),
    );
    return false;
  }
}
