// Which photo a slideshow shows, and which it loads ahead: the photos in the grid's order or shuffled, round after
// round. A shuffled round shows each photo once (a new shuffle each round, never starting with the photo the last
// round ended on). The slide after the one shown is decided ahead (`upcoming`), so that it can be decoded before it
// is due and the show then moves to exactly that slide. Pure: the randomness is handed in.
import { FileType, type GalleryFile } from '../../library/types.ts';
import { groupByDay } from '../gallery/grid-model.ts';

/** The seconds each photo may stay, as offered; the default first shown. */
export const SLIDESHOW_INTERVALS = [3, 5, 10, 20] as const;
export const DEFAULT_INTERVAL = 5;

/** A number in [0, 1), as Math.random gives. */
export type Random = () => number;

/** A round's order (indexes of the slides) and the place in it. */
export interface Round {
  readonly order: readonly number[];
  readonly position: number;
}

export interface Sequence {
  readonly count: number;
  readonly shuffle: boolean;
  /** What is shown. */
  readonly now: Round;
  /** What comes after it, decided ahead so it can be loaded first. */
  readonly upcoming: Round;
}

/** The files a slideshow shows, in the grid's order (newest first): photos and live photos' images; no videos. */
export function slideshowFiles(files: readonly GalleryFile[]): GalleryFile[] {
  return groupByDay(files)
    .flatMap((day) => day.files)
    .filter((file) => file.metadata.fileType !== FileType.video);
}

/** The slide a round is at. */
export const slideOf = (round: Round): number => round.order[round.position] ?? 0;

const inOrder = (count: number) => Array.from({ length: count }, (_, i) => i);

/** 0…count-1 shuffled (Fisher–Yates); `first` put first when given, else `notFirst` not first where avoidable. */
export function shuffledOrder(count: number, random: Random, options: { first?: number; notFirst?: number } = {}) {
  const order = inOrder(count);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const { first, notFirst } = options;
  if (first !== undefined) {
    order.splice(order.indexOf(first), 1);
    order.unshift(first);
  } else if (notFirst !== undefined && count > 1 && order[0] === notFirst) {
    // Swapped with a later place: the round still holds each slide once.
    const j = 1 + Math.floor(random() * (count - 1));
    [order[0], order[j]] = [order[j] as number, order[0]];
  }
  return order;
}

/** The round after `round`'s position: the next place, or at its end a new round (a new shuffle when shuffled). */
function stepForward(round: Round, count: number, shuffle: boolean, random: Random): Round {
  if (round.position + 1 < round.order.length) return { order: round.order, position: round.position + 1 };
  const order = shuffle ? shuffledOrder(count, random, { notFirst: slideOf(round) }) : round.order;
  return { order, position: 0 };
}

function withNow(count: number, shuffle: boolean, now: Round, random: Random): Sequence {
  return { count, shuffle, now, upcoming: stepForward(now, count, shuffle, random) };
}

/** A slideshow of `count` slides starting at slide `start`. */
export function startSequence(
  count: number,
  options: { shuffle?: boolean; start?: number; random?: Random } = {},
): Sequence {
  const { shuffle = false, random = Math.random } = options;
  const start = Math.min(Math.max(0, options.start ?? 0), Math.max(0, count - 1));
  const now = shuffle
    ? { order: shuffledOrder(count, random, { first: start }), position: 0 }
    : { order: inOrder(count), position: start };
  return withNow(count, shuffle, now, random);
}

/** The slide shown. */
export const shownSlide = (sequence: Sequence): number => slideOf(sequence.now);

/** The slide to load ahead. */
export const upcomingSlide = (sequence: Sequence): number => slideOf(sequence.upcoming);

/** On to the upcoming slide (the one loaded ahead). */
export function next(sequence: Sequence, random: Random = Math.random): Sequence {
  return withNow(sequence.count, sequence.shuffle, sequence.upcoming, random);
}

/** Back one place in the round (from its first place, to its last). */
export function previous(sequence: Sequence, random: Random = Math.random): Sequence {
  const { order, position } = sequence.now;
  const now = { order, position: position > 0 ? position - 1 : order.length - 1 };
  return withNow(sequence.count, sequence.shuffle, now, random);
}

/** Shuffle turned on (a new round from the slide shown) or off (the grid's order, from the slide shown). */
export function withShuffle(sequence: Sequence, shuffle: boolean, random: Random = Math.random): Sequence {
  if (shuffle === sequence.shuffle) return sequence;
  return startSequence(sequence.count, { shuffle, start: shownSlide(sequence), random });
}

/**
 * The upcoming slide moved past slides that cannot be shown (`failed`: they did not load); undefined when every
 * slide failed.
 */
export function skipFailed(
  sequence: Sequence,
  failed: ReadonlySet<number>,
  random: Random = Math.random,
): Sequence | undefined {
  if (failed.size >= sequence.count) return undefined;
  let upcoming = sequence.upcoming;
  // Each step reaches a slide not yet tried within two rounds: a bound, not a guess.
  for (let steps = 0; failed.has(slideOf(upcoming)); steps++) {
    if (steps > 2 * sequence.count) return undefined;
    upcoming = stepForward(upcoming, sequence.count, sequence.shuffle, random);
  }
  return { ...sequence, upcoming };
}
