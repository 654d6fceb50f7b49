// Preloaded (`node --import`) into a measured child: at exit it writes the process's peak resident
// set size in KiB to the file KEEPER_MAX_RSS_FILE names, so a measurement needs no /usr/bin/time.
// VmHWM of /proc/self/status, not process.resourceUsage().maxRSS: Linux carries the maxRSS of the
// process that forked us across exec, and the bench that spawns us holds the documents it serves.
import { readFileSync, writeFileSync } from 'node:fs';

const out = process.env.KEEPER_MAX_RSS_FILE;
if (out)
  process.on('exit', () => {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    writeFileSync(out, hwm?.[1] ?? 'no VmHWM');
  });
