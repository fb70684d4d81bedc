// Reading the timeline webview the way a keyboard or screen-reader user does: its lanes are drawn
// on a canvas, and the focused stage is announced in a live region.
import type { Frame } from 'playwright-core';
import { waitFor } from '../../scripts/e2e/code-server';

const announcement = (frame: Frame): Promise<string> => frame.locator('.lanes-view .sr-only[aria-live]').innerText();
const stagePosition = /Stage (\d+) of (\d+)\./;

/** Moves the lane focus down until the announced lane is a pod's (`Pod <name>.`). */
export async function focusFirstPodLane(frame: Frame): Promise<string> {
  const lanes = frame.locator('.lanes-scroll');
  await lanes.focus();
  for (let step = 0; step < 10; step++) {
    await pressAndWaitForChange(frame, 'ArrowDown');
    const text = await announcement(frame);
    if (/\. Pod \S+\. Stage/.test(text)) return text;
  }
  throw new Error(`no pod lane found; last announcement: ${await announcement(frame)}`);
}

/** Announcements of every stage of the focused lane, first to last, leaving the focus on the last. */
export async function walkLane(frame: Frame): Promise<string[]> {
  if (stagePosition.exec(await announcement(frame))?.[1] !== '1') await pressAndWaitForChange(frame, 'Home');
  const stages = [await announcement(frame)];
  for (;;) {
    const position = stagePosition.exec(stages[stages.length - 1]);
    if (!position || position[1] === position[2]) return stages;
    await pressAndWaitForChange(frame, 'ArrowRight');
    stages.push(await announcement(frame));
  }
}

/** Moves left from the end of the lane to the first stage whose announcement matches, and selects it. */
export async function selectStage(frame: Frame, matches: RegExp): Promise<string> {
  for (let step = 0; step < 50; step++) {
    const text = await announcement(frame);
    if (matches.test(text)) {
      await frame.locator('.lanes-scroll').press('Enter');
      return text;
    }
    if (stagePosition.exec(text)?.[1] === '1') break;
    await pressAndWaitForChange(frame, 'ArrowLeft');
  }
  throw new Error(`no stage of the lane matches ${matches}`);
}

export async function evidenceText(frame: Frame, accept: (text: string) => boolean): Promise<string> {
  return waitFor(async () => {
    const text = await frame.locator('aside.evidence').innerText();
    return accept(text) ? text : undefined;
  }, { timeoutMs: 10_000, what: 'the evidence of the selected stage' });
}

async function pressAndWaitForChange(frame: Frame, key: string): Promise<void> {
  const before = await announcement(frame);
  await frame.locator('.lanes-scroll').press(key);
  await waitFor(async () => (await announcement(frame)) !== before || undefined, { timeoutMs: 5_000, what: `a new announcement after ${key}`, intervalMs: 50 });
}

/** The time axis the lanes show, from its description for screen readers (`Time axis from 0 to 4.326s.`). */
export async function axisRange(frame: Frame): Promise<{ startMs: number; endMs: number; text: string }> {
  const text = await frame.locator('.lanes-view .lanes-axis').innerText();
  const range = /^Time axis from (\S+) to (\S+?)(?:, zoomed)?\.$/.exec(text.trim());
  if (!range) throw new Error(`unexpected axis description: ${text}`);
  return { startMs: durationLabelMs(range[1]), endMs: durationLabelMs(range[2]), text };
}

/** `0`, `250ms`, `4.19s`, `1m30s`, `2m`, `1h05m`, `−800ms` (the timeline's duration and tick labels) in ms. */
export function durationLabelMs(label: string): number {
  if (label === '0') return 0;
  const parts = /^([−-])?(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)s)?(?:([\d.]+)ms)?$/.exec(label);
  if (!parts || label.replace(/^[−-]/, '') === '') throw new Error(`not a duration: ${label}`);
  const [, sign, hours, minutes, seconds, millis] = parts;
  const ms = Number(hours ?? 0) * 3_600_000 + Number(minutes ?? 0) * 60_000 + Number(seconds ?? 0) * 1000 + Number(millis ?? 0);
  return sign ? -ms : ms;
}
