import { FileType } from '../../library/types.ts';
import { fileAt, fileOfType } from '../testing/files.ts';
import * as slides from './slideshow-sequence.ts';

/** A repeatable random source (a small linear congruential generator). */
function seeded(seed: number): slides.Random {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The slides shown over `steps` moves forward, the first included. */
function played(sequence: slides.Sequence, steps: number, random: slides.Random): number[] {
  const shown = [slides.shownSlide(sequence)];
  let at = sequence;
  for (let i = 1; i < steps; i++) {
    at = slides.next(at, random);
    shown.push(slides.shownSlide(at));
  }
  return shown;
}

test('in order: from the start slide to the end, then round again; the upcoming slide is the one shown next', () => {
  const random = seeded(1);
  let sequence = slides.startSequence(4, { start: 2, random });
  expect(slides.shownSlide(sequence)).toBe(2);
  const seen = [];
  for (let i = 0; i < 6; i++) {
    const upcoming = slides.upcomingSlide(sequence);
    sequence = slides.next(sequence, random);
    expect(slides.shownSlide(sequence)).toBe(upcoming);
    seen.push(upcoming);
  }
  expect(seen).toEqual([3, 0, 1, 2, 3, 0]);
});

test('previous goes back one, and from the first place to the last', () => {
  let sequence = slides.startSequence(3);
  sequence = slides.previous(sequence);
  expect(slides.shownSlide(sequence)).toBe(2);
  expect(slides.upcomingSlide(sequence)).toBe(0);
  sequence = slides.previous(sequence);
  expect(slides.shownSlide(sequence)).toBe(1);
});

test('shuffled: each round shows every slide once, rounds differ, and a round never starts with the last one shown', () => {
  const random = seeded(7);
  const count = 6;
  const sequence = slides.startSequence(count, { shuffle: true, start: 4, random });
  const shown = played(sequence, count * 5, random);
  expect(shown[0]).toBe(4);
  const rounds = Array.from({ length: 5 }, (_, i) => shown.slice(i * count, (i + 1) * count));
  for (const round of rounds) expect([...round].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  for (let i = 1; i < rounds.length; i++) expect(rounds[i]?.[0]).not.toBe(rounds[i - 1]?.[count - 1]);
  expect(new Set(rounds.map((round) => round.join(','))).size).toBeGreaterThan(1);
});

test('a shuffle that would start a round with the slide just shown is changed, still each slide once', () => {
  // A random source of zeros keeps 0…n-1 rotated the same way each time: the avoidance has to act.
  const zeros: slides.Random = () => 0;
  const order = slides.shuffledOrder(4, zeros);
  const again = slides.shuffledOrder(4, zeros, { notFirst: order[0] });
  expect(again[0]).not.toBe(order[0]);
  expect([...again].sort()).toEqual([0, 1, 2, 3]);
  expect(slides.shuffledOrder(1, zeros, { notFirst: 0 })).toEqual([0]);
});

test('shuffle on starts a shuffled round from the slide shown; off goes back to the grid’s order from it', () => {
  const random = seeded(3);
  let sequence = slides.next(slides.startSequence(5, { random }), random);
  sequence = slides.withShuffle(sequence, true, random);
  expect(sequence.shuffle).toBe(true);
  expect(slides.shownSlide(sequence)).toBe(1);
  expect([...sequence.now.order].sort()).toEqual([0, 1, 2, 3, 4]);
  sequence = slides.next(sequence, random);
  const at = slides.shownSlide(sequence);
  sequence = slides.withShuffle(sequence, false, random);
  expect(slides.shownSlide(sequence)).toBe(at);
  expect(slides.upcomingSlide(sequence)).toBe((at + 1) % 5);
  expect(slides.withShuffle(sequence, false, random)).toBe(sequence);
});

test('slides that failed to load are skipped ahead; with none left there is nothing to show', () => {
  const random = seeded(5);
  const sequence = slides.startSequence(4, { random });
  const skipped = slides.skipFailed(sequence, new Set([1, 2]), random);
  expect(skipped && slides.upcomingSlide(skipped)).toBe(3);
  expect(skipped && slides.shownSlide(skipped)).toBe(0);
  const wrapped = slides.skipFailed(slides.next(slides.next(slides.next(sequence))), new Set([0, 1]), random);
  expect(wrapped && slides.upcomingSlide(wrapped)).toBe(2);
  expect(slides.skipFailed(sequence, new Set([0, 1, 2, 3]), random)).toBeUndefined();
  const shuffled = slides.startSequence(5, { shuffle: true, random });
  const failed = new Set([0, 1, 2, 3].filter((slide) => slide !== slides.shownSlide(shuffled)));
  const left = slides.skipFailed(shuffled, failed, random);
  expect(left && [4, slides.shownSlide(shuffled)]).toContain(left && slides.upcomingSlide(left));
});

test('the files shown: the grid’s order, newest first, photos and live photos but no videos', () => {
  const older = fileAt(1, new Date(2024, 0, 1));
  const newer = fileAt(2, new Date(2024, 5, 1));
  const video = fileOfType(3, new Date(2024, 3, 1), 'clip.mp4', FileType.video);
  const live = fileOfType(4, new Date(2024, 2, 1), 'live.heic', FileType.livePhoto);
  expect(slides.slideshowFiles([older, video, newer, live]).map((file) => file.id)).toEqual([2, 4, 1]);
});
