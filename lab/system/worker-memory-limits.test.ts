import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { checkCacheFitsHeap, heapNeededMb } from '../../workers/heap-budget.js';
import { runCli } from '../../testing/run-cli.js';
import { testCodecEnv } from '../../testing/codec.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { alive, childrenOf, startWorkerProcess, type WorkerProcess } from '../../testing/worker-process.js';

describe('eligibility worker memory limits', function () {
  // The worker bundles the workflow code at start (several seconds through tsx).
  this.timeout(120_000);

  it('holds the default cache in the default heap, and refuses a cache its heap cannot hold', () => {
    const defaults = loadConfig('worker', {}).worker;
    assert.doesNotThrow(() => checkCacheFitsHeap(defaults));
    // heapNeededMb already doubles what was measured live; the default keeps a quarter of the heap beyond even that.
    assert.ok(heapNeededMb(defaults.maxCachedWorkflows) <= defaults.heapMb * 0.75, 'the default leaves the cache room');
    const tooMany = { ...defaults, maxCachedWorkflows: 2000 };
    assert.throws(() => checkCacheFitsHeap(tooMany), /WORKER_HEAP_MB.*WORKER_MAX_CACHED_WORKFLOWS=2000/);
    assert.doesNotThrow(() => checkCacheFitsHeap({ ...tooMany, heapMb: heapNeededMb(2000) }));
  });

  it('stops at start, naming both variables, when the cache cannot fit', async () => {
    const { code, stdout, stderr } = await runCli(['worker'], { WORKER_MAX_CACHED_WORKFLOWS: '5000' });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /^eligibility: .*WORKER_HEAP_MB.*WORKER_MAX_CACHED_WORKFLOWS=5000/);
  });

  describe('a running worker', () => {
    let worker: WorkerProcess | undefined;
    let relaunched: number | undefined;
    after(() => {
      for (const pid of [worker?.child.pid, relaunched])
        if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
    });

    it('runs in a child started with its heap limits and MALLOC_ARENA_MAX, which stops when its launcher dies', async () => {
      const { server } = testTemporal();
      worker = startWorkerProcess({
        ...testCodecEnv(),
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: server.namespace,
        TEMPORAL_TASK_QUEUE: `deploy-limits-${randomUUID()}`,
        WORKER_HEAP_MB: '300',
        LOG_LEVEL: 'warn',
      });
      await worker.ready;
      const launcher = worker.child.pid!;
      const [child, ...others] = childrenOf(launcher);
      assert.ok(child !== undefined && others.length === 0, 'one child: the worker itself (bundling is over)');
      relaunched = child;
      const argv = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
      assert.ok(argv.includes('--max-old-space-size=300'), argv.join(' '));
      assert.ok(argv.includes('--max-semi-space-size=2'), argv.join(' '));
      assert.deepEqual(argv.filter(Boolean).slice(-2), ['worker', '--in-process']);
      assert.ok(readFileSync(`/proc/${child}/environ`, 'utf8').split('\0').includes('MALLOC_ARENA_MAX=2'));

      // Killed outright, the launcher cannot forward anything: the worker sees its IPC channel close, drains, exits.
      worker.child.kill('SIGKILL');
      await eventually(() => Promise.resolve(alive(child) ? undefined : true), 30_000, 'the worker to exit');
    });
  });
});
