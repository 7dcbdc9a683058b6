// Runs one slicer process under GNU time and returns its wall time and peak RSS. GNU time reports
// the process's own maximum resident set (getrusage), which covers all its threads: Node worker
// threads, TBB (PrusaSlicer) and OpenMP (CuraEngine) pools alike. CPU time (user + system) comes
// along: on a shared machine it moves less than wall time when other work competes for cores.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const GNU_TIME = '/usr/bin/time';

/** `/usr/bin/time -f '%e %M %U %S'` output: elapsed s, maximum RSS in KiB, user and system s. */
export function parseTimeReport(text) {
  const m = /^\s*([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s*$/m.exec(text);
  if (!m) throw new Error(`unreadable GNU time report ${JSON.stringify(text)}`);
  return { wallS: Number(m[1]), peakRssMb: Number(m[2]) / 1024, cpuS: Number(m[3]) + Number(m[4]) };
}

/**
 * Runs `command args` in `workDir`, measuring it. The time report goes to its own file, so the
 * slicer's stderr stays intact for parsing. A failed run is returned (exitCode ≠ 0), not thrown.
 */
export function runMeasured(command, args, { workDir }) {
  if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is missing: install the Debian package "time"`);
  const report = join(workDir, 'time-report.txt');
  rmSync(report, { force: true });
  const result = spawnSync(GNU_TIME, ['-f', '%e %M %U %S', '-o', report, command, ...args], {
    cwd: workDir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  const measured = existsSync(report) ? parseTimeReport(readFileSync(report, 'utf8')) : { wallS: NaN, peakRssMb: NaN, cpuS: NaN };
  return { ...measured, exitCode: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
