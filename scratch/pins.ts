import { ROUND_EIGHT } from '../hosts/known-bad/catalogue/round-eight.ts';
export { HONEST } from './redteam8.ts';
export const REDTEAM_HOSTS = ROUND_EIGHT;
