// For tests only: jsdom has no PointerEvent. A MouseEvent with the pointer's id and type is enough for the
// gestures the components follow (a long press, a swipe, a pinch).

export function installPointerEvent(): void {
  if (typeof window.PointerEvent !== 'undefined') return;
  window.PointerEvent = class extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
    }
  } as unknown as typeof PointerEvent;
}
