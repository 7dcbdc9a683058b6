/** Entry point of a slicing worker thread: runs the named task and posts the result back. */
import { parentPort } from 'node:worker_threads';
import { AppError, ErrorCode, toAppError } from '../../../common/errors.js';
import { createTasks, type TaskName } from './tasks.js';

const tasks = createTasks();

function transferablesOf(result: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const visit = (v: unknown) => {
    if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) out.push(v.buffer);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(result);
  return [...new Set(out)];
}

const port = parentPort;
if (!port) throw new AppError(ErrorCode.internal, 500, 'workers/worker.js runs only as a worker thread');

port.on('message', (msg: { id: number; name: TaskName; args: unknown }) => {
  try {
    const run = tasks[msg.name] as (args: unknown) => unknown;
    const result = run(msg.args);
    port.postMessage({ id: msg.id, ok: true, result }, transferablesOf(result));
  } catch (err) {
    const e = toAppError(err);
    port.postMessage({ id: msg.id, ok: false, error: { code: e.code, status: e.status, message: e.message } });
  }
});
