// A seam the host claims and answers wrongly is the host's failure (CONTRACT §5): a body of
// another shape or another status fails the leg; a 404 or 403 says the seam cannot be observed,
// which stays `blocked` (docs/wire.md §10). The known-bad host run-effects-malformed holds it
// end to end in the kill matrix.

import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../lib/client/index.ts';
import { createChecks, LegAbort, LegBlocked } from '../lib/ledger/leg.ts';
import { seamAnswerWrong } from '../scenarios/support/effects.ts';

const answer = (status: number, json?: unknown): { reason: string; result: HttpResult } => ({
  reason: `answered ${status}`,
  result: { status, headers: {}, text: json === undefined ? '' : JSON.stringify(json), json },
});

function outcome(failed: { reason: string; result: HttpResult }): { thrown: string; failures: readonly string[] } {
  const check = createChecks('[host]');
  try {
    seamAnswerWrong(check, 'GET /conformance/seams/runs/{runId}/effects answers 200 {runId, effects}', failed);
  } catch (error) {
    return { thrown: error instanceof LegBlocked ? 'blocked' : error instanceof LegAbort ? 'failed' : String(error), failures: check.failures };
  }
  return { thrown: 'nothing', failures: check.failures };
}

describe('a claimed seam answered otherwise than CONTRACT §5 says', () => {
  it('fails the leg for a malformed 200, naming the contract', () => {
    const { thrown, failures } = outcome(answer(200, { effects: { 'conformance.eval:echo': 1, note: 'per run' } }));
    expect(thrown).toBe('failed');
    expect(failures.join('\n')).toMatch(/CONTRACT §5: GET \/conformance\/seams\/runs\/\{runId\}\/effects answers 200/);
  });

  it('fails the leg for a status the seam does not answer', () => {
    expect(outcome(answer(500, { error: 'internal_error', message: 'boom' })).thrown).toBe('failed');
    expect(outcome(answer(409, { error: 'run_state_conflict', message: 'running' })).thrown).toBe('failed');
  });

  it('blocks the leg when the seam cannot be observed (404, 403)', () => {
    for (const status of [404, 403]) {
      const { thrown, failures } = outcome(answer(status));
      expect(thrown, String(status)).toBe('blocked');
      expect(failures).toEqual([]);
    }
  });
});
