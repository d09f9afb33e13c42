// The slideshow's order as pure data: each round the album's photos in a fresh random order, files that arrive
// during a round joined to what is left of it, files that left dropped, and the next one known ahead so that it
// is decrypted and decoded before it is shown.

export type Deck = { order: readonly number[]; position: number };

/** `ids` in a random order (Fisher–Yates with `random` in [0, 1)). */
export function shuffled(ids: readonly number[], random: () => number): number[] {
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

/** A first round: every id, shuffled, at its start. */
export function deal(ids: readonly number[], random: () => number): Deck {
  return { order: shuffled(ids, random), position: 0 };
}

/** The id on screen (undefined for an empty album). */
export function current(deck: Deck): number | undefined {
  return deck.order[deck.position];
}

/**
 * The deck against the album's ids now: ids gone are dropped (the current one too, the next taking its place),
 * new ids are shuffled into what is left of this round, after the current one.
 */
export function joinAlbum(deck: Deck, ids: readonly number[], random: () => number): Deck {
  const live = new Set(ids);
  const known = new Set(deck.order);
  let position = deck.position;
  const order: number[] = [];
  deck.order.forEach((id, index) => {
    if (live.has(id)) order.push(id);
    else if (index < deck.position) position -= 1;
  });
  const fresh = ids.filter((id) => !known.has(id));
  if (fresh.length === 0) return { order, position: Math.min(position, Math.max(0, order.length - 1)) };
  const rest = shuffled([...order.slice(position + 1), ...fresh], random);
  const head = order.slice(0, Math.min(position + 1, order.length));
  return { order: [...head, ...rest], position: Math.min(position, Math.max(0, head.length - 1)) };
}

/**
 * The deck one slide on: the next of this round, or a new round reshuffled (its first not the one just shown,
 * when there is a choice).
 */
export function advance(deck: Deck, random: () => number): Deck {
  if (deck.position + 1 < deck.order.length) return { order: deck.order, position: deck.position + 1 };
  const last = current(deck);
  const order = shuffled(deck.order, random);
  if (order.length > 1 && order[0] === last) [order[0], order[1]] = [order[1] as number, order[0] as number];
  return { order, position: 0 };
}
