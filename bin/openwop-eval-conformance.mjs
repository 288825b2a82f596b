#!/usr/bin/env node
// The published entry point: runs the TypeScript CLI through tsx's loader, so the package ships
// its sources as they are and needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/cli.ts');
process.exitCode = await main(process.argv.slice(2));
