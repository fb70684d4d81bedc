import assert from 'node:assert/strict';
import { createTimeScale, fitWindow, panWindow, tickLabel, ticks, zoomWindow } from '../../../src/webview/model/scale';

describe('time scale', () => {
  it('maps the window linearly onto the pixel range and back', () => {
    const scale = createTimeScale('linear', { startMs: 0, endMs: 4000 }, 100, 900);
    assert.equal(scale.toX(0), 100);
    assert.equal(scale.toX(2000), 500);
    assert.equal(scale.toX(4000), 900);
    assert.equal(scale.toMs(500), 2000);
  });

  it('on the log scale gives each decade the same width, and inverts', () => {
    const scale = createTimeScale('log', { startMs: 0, endMs: 9999 }, 0, 400);
    assert.ok(Math.abs(scale.toX(9) - 100) < 1e-9);
    assert.ok(Math.abs(scale.toX(99) - 200) < 1e-9);
    assert.ok(Math.abs(scale.toX(999) - 300) < 1e-9);
    assert.ok(Math.abs(scale.toMs(scale.toX(1234)) - 1234) < 1e-6);
    assert.ok(scale.toX(-500) < 0, 'stamps before the apply stay left of it');
  });

  it('fits the journey with room after the last change', () => {
    assert.deepEqual(fitWindow(1000), { startMs: 0, endMs: 1030 });
    assert.deepEqual(fitWindow(10), { startMs: 0, endMs: 103 });
    assert.equal(fitWindow(1000, -400).startMs, -400);
  });

  it('zooms around the anchor and clamps to the journey', () => {
    const bounds = { startMs: 0, endMs: 1000 };
    const scale = createTimeScale('linear', bounds, 0, 1000);
    const zoomed = zoomWindow(scale, 0.5, 250, bounds);
    assert.deepEqual(zoomed, { startMs: 125, endMs: 625 });
    assert.equal(createTimeScale('linear', zoomed, 0, 1000).toX(250), 250, 'the time under the pointer stays under it');
    assert.equal(zoomWindow(createTimeScale('linear', zoomed, 0, 1000), 4, 500, bounds), bounds, 'zooming out past the journey fits it');
    const tiny = createTimeScale('linear', { startMs: 10, endMs: 11 }, 0, 1000);
    assert.deepEqual(zoomWindow(tiny, 0.5, 500, bounds), { startMs: 10, endMs: 11 }, 'no zooming below 2 ms');
  });

  it('pans by pixels without leaving the journey', () => {
    const bounds = { startMs: 0, endMs: 1000 };
    const scale = createTimeScale('linear', { startMs: 100, endMs: 300 }, 0, 200);
    assert.deepEqual(panWindow(scale, 50, bounds), { startMs: 150, endMs: 350 });
    assert.deepEqual(panWindow(scale, -500, bounds), { startMs: 0, endMs: 200 });
    assert.deepEqual(panWindow(scale, 5000, bounds), { startMs: 800, endMs: 1000 });
  });

  it('puts ticks at round times at least the minimum gap apart', () => {
    const linear = ticks(createTimeScale('linear', { startMs: 0, endMs: 4300 }, 0, 860), 80);
    assert.deepEqual(linear.map((t) => t.label), ['0', '500ms', '1s', '1.5s', '2s', '2.5s', '3s', '3.5s', '4s']);
    const log = ticks(createTimeScale('log', { startMs: 0, endMs: 60_000 }, 0, 600), 50);
    assert.deepEqual(log.map((t) => t.label), ['0', '10ms', '100ms', '1s', '10s']);
    for (let i = 1; i < log.length; i++) assert.ok(log[i].x - log[i - 1].x >= 50);
  });

  it('labels ticks briefly', () => {
    assert.deepEqual([0, 0.5, 15, 250, 1000, 1500, 60_000, 90_000, 3_600_000, 5_400_000, -2000].map(tickLabel), ['0', '0.5ms', '15ms', '250ms', '1s', '1.5s', '1m', '1m30s', '1h', '1h30m', '−2s']);
  });
});
