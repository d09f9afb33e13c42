// The slideshow's order: each round every photo once in a fresh order, new photos joined, removed ones dropped.
import { expect, test } from '@jest/globals';

import { advance, current, deal, joinAlbum, shuffled, type Deck } from './deck.ts';

/** A deterministic random source (a small LCG). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function round(deck: Deck, random: () => number): { ids: number[]; deck: Deck } {
  const ids = [current(deck) as number];
  let next = deck;
  for (let i = 1; i < deck.order.length; i++) {
    next = advance(next, random);
    ids.push(current(next) as number);
  }
  return { ids, deck: next };
}

test('each round shows every photo once, and rounds are reshuffled without repeating the last photo first', () => {
  const random = seeded(7);
  const ids = [1, 2, 3, 4, 5, 6, 7, 8];
  let deck = deal(ids, random);
  const orders: number[][] = [];
  for (let r = 0; r < 6; r++) {
    const shown = round(deck, random);
    expect([...shown.ids].sort((a, b) => a - b)).toEqual(ids);
    orders.push(shown.ids);
    const last = current(shown.deck);
    deck = advance(shown.deck, random);
    expect(deck.position).toBe(0);
    expect(current(deck)).not.toBe(last);
  }
  expect(new Set(orders.map((order) => order.join())).size).toBeGreaterThan(1);
  expect(shuffled([], random)).toEqual([]);
});

test('photos added during a round are shown later in the same round; removed ones are dropped', () => {
  const random = seeded(3);
  let deck = advance(deal([1, 2, 3, 4], random), random);
  const onScreen = current(deck);
  const seen = deck.order.slice(0, deck.position + 1);
  deck = joinAlbum(deck, [1, 2, 3, 4, 9, 10], random);
  expect(current(deck)).toBe(onScreen);
  expect(deck.order.slice(0, deck.position + 1)).toEqual(seen);
  const rest = deck.order.slice(deck.position + 1);
  expect(rest).toEqual(expect.arrayContaining([9, 10]));
  expect(deck.order).toHaveLength(6);

  // One already shown and one still to come leave; the one on screen stays current.
  const gone = [seen[0] as number, rest[0] as number];
  const kept = [1, 2, 3, 4, 9, 10].filter((id) => !gone.includes(id));
  const after = joinAlbum(deck, kept, random);
  expect(current(after)).toBe(onScreen);
  expect([...after.order].sort((a, b) => a - b)).toEqual(kept);
});

test('an empty album deals nothing, and its first photos are dealt when they arrive', () => {
  const random = seeded(1);
  const empty = deal([], random);
  expect(current(empty)).toBeUndefined();
  const joined = joinAlbum(empty, [5, 6], random);
  expect(joined.position).toBe(0);
  expect([...joined.order].sort()).toEqual([5, 6]);
});
