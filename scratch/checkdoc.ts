import { JUDGE_WEIGHTS } from '../scenarios/v2-eval-trajectory-trials/0244-a-rubric-trajectory.ts';
import { validate, checkSuiteRules } from '../lib/schemas/index.ts';
const shape = validate('eval-suite-fixture', JUDGE_WEIGHTS);
console.log(shape);
console.log(checkSuiteRules(JUDGE_WEIGHTS.suite as never));
