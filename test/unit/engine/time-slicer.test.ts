import { expect } from 'chai';
import { performance } from 'node:perf_hooks';
import { TimeSlicer } from '../../../api-server/src/engine/time-slicer.js';

/** `units` pieces of synchronous work of `unitMs` each, pausing where the slicer says */
async function work(slicer: TimeSlicer, units: number, unitMs: number, done: () => void): Promise<number> {
  let pauses = 0;
  slicer.restart();
  for (let i = 0; i < units; i++) {
    const until = performance.now() + unitMs;
    while (performance.now() < until) {
      // busy: stands for one analysis run
    }
    const wait = slicer.pause();
    if (wait !== undefined) {
      pauses += 1;
      await wait;
    }
  }
  done();
  return pauses;
}

describe('TimeSlicer: long work and requests share the event loop', function () {
  this.timeout(30_000);

  it('a timer due during the work runs before the work ends; without pauses it would not', async () => {
    let workDone = false;
    let timerRanBeforeEnd: boolean | undefined;
    setTimeout(() => {
      timerRanBeforeEnd = !workDone;
    }, 5);
    const pauses = await work(new TimeSlicer({ idleMs: 10, busyMs: 1 }), 100, 0.5, () => {
      workDone = true;
    });
    expect(timerRanBeforeEnd).to.equal(true);
    // 50 ms of work in slices of at least 10 ms: a few pauses (more when the machine is busy), never one per unit
    expect(pauses).to.be.within(1, 25);
  });

  it('a stream of requests never starves the work, and moves it to the short slice', async () => {
    let requests = 0;
    let workDone = false;
    // a request every turn of the loop for as long as the work runs (each schedules the next)
    const serve = (): void => {
      requests += 1;
      if (!workDone) setImmediate(serve);
    };
    setImmediate(serve);
    const pauses = await work(new TimeSlicer({ idleMs: 10, busyMs: 1 }, () => requests), 100, 0.5, () => {
      workDone = true;
    });
    // the work finished although a request was waiting at every pause
    expect(workDone).to.equal(true);
    // with requests coming in, slices are ~1 ms: about one pause per two units, far more than idle
    expect(pauses).to.be.greaterThan(20);
    expect(requests).to.be.at.least(pauses);
  });

  it('with a gap after busy slices, a stream of requests gets several turns between two slices, and the work still finishes', async () => {
    const served: number[] = [];
    let requests = 0;
    let workDone = false;
    const serve = (): void => {
      requests += 1;
      if (!workDone) setImmediate(serve);
    };
    setImmediate(serve);
    const slicer = new TimeSlicer({ idleMs: 10, busyMs: 1, busyGapMs: 3 }, () => requests);
    let before = requests;
    slicer.restart();
    for (let i = 0; i < 100; i++) {
      const until = performance.now() + 0.5;
      while (performance.now() < until) {
        // busy: stands for one analysis run
      }
      const wait = slicer.pause();
      if (wait !== undefined) {
        await wait;
        served.push(requests - before);
        before = requests;
      }
    }
    workDone = true;
    // every pause of a busy slice waits for a 3-ms timer: the stream's turns run meanwhile (a
    // pause on setImmediate alone lets through about one); the first pause follows an idle slice
    const afterBusy = served.slice(1).sort((a, b) => a - b);
    expect(afterBusy.length).to.be.greaterThan(10);
    expect(afterBusy[Math.floor(afterBusy.length / 2)]).to.be.at.least(3);
  });
});
