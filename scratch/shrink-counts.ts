// How many candidate runs the generated leg's shrink takes on known-bad forbidden-count-per-tool
// at the bench's seed, over several certifications (bench/generated.ts's third row).
import { main } from '../commands/cli.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';

const bad = KNOWN_BAD_HOSTS.find((entry) => entry.name === 'forbidden-count-per-tool')!;
const counts: string[] = [];
for (let i = 0; i < Number(process.argv[2] ?? 8); i++) {
  const host = await startReferenceHost({ log: () => {}, ...bad.options, port: 0, dbPath: ':memory:' });
  let out = '';
  await main(['run', '--base-url', host.baseUrl, '--api-key', host.tenants.a.apiKey, '--tenant-b-api-key', host.tenants.b.apiKey, '--progress', 'none', '--seed', '6d6174726978000000000000000000ff', '--filter', 'generated-suites'], { out: (t) => { out += t; }, err: () => {} });
  await host.close();
  counts.push(/shrunk in (\d+) runs/.exec(out)?.[1] ?? '?');
}
console.log(counts.join(' '));
