/**
 * The dashboard of farm-loop-child.ts in a process of its own, for the tests that kill it with
 * SIGKILL and start it again on the same data dir (farm-loop-restart.ts, history's restart test).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { api, type Api } from './farm-loop-farm.js';

const CHILD = fileURLToPath(new URL('./farm-loop-child.js', import.meta.url));

export interface Child {
  api: Api;
  kill(): Promise<void>;
}

/** Starts the dashboard on `dataDir`; resolves once it takes requests. */
export function startChild(dataDir: string): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [CHILD, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const url = /listening on (\S+)/.exec(stderr)?.[1];
      if (url)
        resolve({
          api: api(url),
          async kill() {
            child.kill('SIGKILL');
            await exited;
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`the dashboard exited (${code}) before it listened:\n${stderr}`)));
  });
}
