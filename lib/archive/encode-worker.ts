// The archive's thread (./encode-thread.ts): makes the entries of each hand-off as it comes, and
// with a last one the archive's text, checks it for a secret and compresses it, and answers its
// bytes; the command ends the thread once it has the answer it uses. An error thrown here reaches
// the command as the thread's `error`: the run fails as a harness bug, as it would making the
// archive on its own thread.

import { parentPort } from 'node:worker_threads';
import { ArchiveEntries, type FromArchiveThread, type ToArchiveThread } from './encode-thread.ts';
import { checkedArchiveBytes } from './har.ts';

const port = parentPort!;
const entries = new ArchiveEntries();

port.on('message', async (message: ToArchiveThread) => {
  const redactor = entries.take(message);
  if (message.finish === undefined) return;
  const { path, settings, round } = message.finish;
  const answer: FromArchiveThread = { round, bytes: await checkedArchiveBytes(entries.text(settings, redactor), path, redactor) };
  port.postMessage(answer);
});
