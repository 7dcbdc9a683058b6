/** Where a slice's geometry tasks run: a worker pool, or this thread when the job is too small to pay for threads. */
import { createTasks, type TaskArgs, type TaskName, type TaskResult } from './tasks.js';
import { WorkerPool } from './pool.js';

export interface TaskRunner {
  readonly threads: number;
  run<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<TaskResult<N>>;
  broadcast<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<void>;
  close(): Promise<void>;
}

class InlineRunner implements TaskRunner {
  readonly threads = 1;
  private readonly tasks = createTasks();

  run<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<TaskResult<N>> {
    return new Promise((resolve) => setImmediate(() => resolve((this.tasks[name] as (a: TaskArgs<N>) => TaskResult<N>)(args))));
  }

  async broadcast<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<void> {
    await this.run(name, args);
  }

  async close(): Promise<void> {}
}

class PoolRunner implements TaskRunner {
  constructor(private readonly pool: WorkerPool) {}
  get threads(): number {
    return this.pool.size;
  }
  run<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<TaskResult<N>> {
    return this.pool.run(name, args);
  }
  broadcast<N extends TaskName>(name: N, args: TaskArgs<N>): Promise<void> {
    return this.pool.broadcast(name, args);
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}

export function createRunner(threads: number): TaskRunner {
  return threads <= 1 ? new InlineRunner() : new PoolRunner(new WorkerPool(threads));
}
