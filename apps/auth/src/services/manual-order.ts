// Manual order of the codes (docs/product.md#the-codes): a move by drag or by keyboard rewrites
// `codeDisplay.position` of the codes whose place changed. Positions are the indexes of the new order
// of every code not in the trash (pinned ones first, as the list shows them), so after the first move
// the positions are 0…n−1 and moving a code by k places writes k + 1 codes.
import type { Code } from './types.ts';

export interface PositionChange {
  code: Code;
  position: number;
}

/**
 * `ordered` (the manual order shown, all codes outside the trash) with `id` moved next to `targetId`
 * (before or after it). Undefined when the move is not possible: an unknown code, the code itself, or
 * a target on the other side of the pinned/unpinned boundary.
 */
export function moveCode(
  ordered: readonly Code[],
  id: string,
  targetId: string,
  where: 'before' | 'after',
): Code[] | undefined {
  if (id === targetId) return undefined;
  const moving = ordered.find((code) => code.id === id);
  const target = ordered.find((code) => code.id === targetId);
  if (!moving || !target || moving.display.pinned !== target.display.pinned) return undefined;
  const rest = ordered.filter((code) => code.id !== id);
  const at = rest.indexOf(target) + (where === 'after' ? 1 : 0);
  return [...rest.slice(0, at), moving, ...rest.slice(at)];
}

/** The position writes that make `ordered` the manual order: position = index, only where it differs. */
export function positionChanges(ordered: readonly Code[]): PositionChange[] {
  const changes: PositionChange[] = [];
  ordered.forEach((code, position) => {
    if (code.display.position !== position) changes.push({ code, position });
  });
  return changes;
}

/** The code data with its new position (every other key of `codeDisplay` kept). */
export function withPosition(code: Code, position: number): Code {
  return { ...code, display: { ...code.display, position } };
}
