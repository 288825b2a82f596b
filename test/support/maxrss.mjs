// Preloaded into a harness child process (`node --import ./test/support/maxrss.mjs bin/… run …`):
// when the process exits, however it exits (a return, process.exit), its peak resident set size
// — `process.resourceUsage().maxRSS`, in KiB, the kernel's high-water mark of the whole process —
// is written to the file named by OPENWOP_MAXRSS_FILE. test/hostile.test.ts and bench/hostile.ts
// read it; the harness itself knows nothing of it.
import { writeFileSync } from 'node:fs';

const file = process.env.OPENWOP_MAXRSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      writeFileSync(file, String(process.resourceUsage().maxRSS));
    } catch {
      // nowhere to report it: the reader sees no file and says so
    }
  });
}
