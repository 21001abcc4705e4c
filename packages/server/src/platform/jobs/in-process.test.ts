import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessJobs } from './in-process.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A promise and its resolver, to hold a handler open. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('InProcessJobs', () => {
  it('runs a repeatable job every interval, at once only when asked, and skips a tick while it runs', async () => {
    vi.useFakeTimers();
    const jobs = new InProcessJobs();
    let later = 0;
    await jobs.every('later', 1_000, async () => void later++);
    let soon = 0;
    const hold = gate();
    await jobs.every(
      'soon',
      1_000,
      async () => {
        soon++;
        if (soon === 1) await hold.promise;
      },
      { immediately: true },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect([later, soon]).toEqual([0, 1]);
    // The first run of `soon` is still under way: its next two ticks are skipped, not queued.
    await vi.advanceTimersByTimeAsync(2_000);
    expect([later, soon]).toEqual([2, 1]);
    hold.open();
    await vi.advanceTimersByTimeAsync(1_000);
    expect([later, soon]).toEqual([3, 2]);
    await jobs.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect([later, soon]).toEqual([3, 2]);
  });

  it('works queued jobs at most `concurrency` at once, and queues an id once while queued or running', async () => {
    const jobs = new InProcessJobs();
    const holds = new Map<string, ReturnType<typeof gate>>();
    const ran: string[] = [];
    let active = 0;
    let peak = 0;
    await jobs.work<{ key: string }>(
      'fan',
      async (data, job) => {
        expect(job.id).toBe(`id-${data.key}`);
        ran.push(data.key);
        active++;
        peak = Math.max(peak, active);
        const hold = gate();
        holds.set(data.key, hold);
        await hold.promise;
        active--;
      },
      { concurrency: 2 },
    );
    for (const key of ['a', 'b', 'c', 'a', 'b']) await jobs.enqueue('fan', { key }, { jobId: `id-${key}` });
    await vi.waitFor(() => expect(ran).toEqual(['a', 'b']));
    expect(jobs.pending('fan')).toBe(1);
    holds.get('a')?.open();
    await vi.waitFor(() => expect(ran).toEqual(['a', 'b', 'c']));
    // `a` ended: its id may be queued again; `b` still runs: not.
    await jobs.enqueue('fan', { key: 'a' }, { jobId: 'id-a' });
    await jobs.enqueue('fan', { key: 'b' }, { jobId: 'id-b' });
    holds.get('b')?.open();
    await vi.waitFor(() => expect(ran).toEqual(['a', 'b', 'c', 'a']));
    holds.get('c')?.open();
    holds.get('a')?.open();
    await jobs.close();
    expect(peak).toBe(2);
    expect(active).toBe(0);
  });

  it('holds jobs queued before their handler is registered', async () => {
    const jobs = new InProcessJobs();
    const seen: number[] = [];
    await jobs.enqueue('early', 1, { jobId: 'one' });
    await jobs.enqueue('early', 2, { jobId: 'two' });
    await jobs.work<number>('early', async (n) => void seen.push(n));
    await vi.waitFor(() => expect(seen).toEqual([1, 2]));
    await jobs.close();
  });

  it('waits on close for the handlers under way, and drops the jobs not started', async () => {
    const jobs = new InProcessJobs();
    const hold = gate();
    let finished = 0;
    let started = 0;
    await jobs.work('slow', async () => {
      started++;
      await hold.promise;
      finished++;
    });
    await jobs.enqueue('slow', null, { jobId: 'first' });
    await jobs.enqueue('slow', null, { jobId: 'second' });
    await vi.waitFor(() => expect(started).toBe(1));
    let closed = false;
    const closing = jobs.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(false);
    hold.open();
    await closing;
    expect([started, finished]).toEqual([1, 1]);
    await jobs.enqueue('slow', null, { jobId: 'third' });
    expect(started).toBe(1);
  });

  it('reports a failed handler and goes on', async () => {
    const failures: string[] = [];
    const jobs = new InProcessJobs({ onError: (name, err) => failures.push(`${name}: ${(err as Error).message}`) });
    const seen: string[] = [];
    await jobs.work<string>('flaky', async (s) => {
      if (s === 'bad') throw new Error('venue down');
      seen.push(s);
    });
    await jobs.enqueue('flaky', 'bad', { jobId: 'bad' });
    await jobs.enqueue('flaky', 'good', { jobId: 'good' });
    await vi.waitFor(() => expect(seen).toEqual(['good']));
    expect(failures).toEqual(['flaky: venue down']);
    await jobs.close();
  });

  it('refuses names and ids that a Redis queue cannot hold', async () => {
    const jobs = new InProcessJobs();
    await expect(jobs.enqueue('sync:due', null, { jobId: 'x' })).rejects.toThrow(/Job name/);
    await expect(jobs.enqueue('sync', null, { jobId: 'a:b' })).rejects.toThrow(/job id/);
    await expect(jobs.enqueue('sync', null, { jobId: '42' })).rejects.toThrow(/job id/);
    await jobs.close();
  });
});
