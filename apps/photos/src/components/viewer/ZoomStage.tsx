// The viewer's stage: where the file is drawn, fitted, and where the pointer gestures land. With `zoomable`: the
// wheel zooms about the pointer, a double click zooms in there (or fits again), two fingers pinch about their
// middle, and one pointer pans once zoomed. At the fit, a quick sideways one-finger move is a swipe to the
// previous or next file (viewer-model.ts does the arithmetic).
import Box from '@mui/material/Box';
import { useEffect, useRef, type PointerEvent, type ReactNode } from 'react';

import { noZoom, pan, stepScale, swipeOf, wheelFactor, zoomAbout, type Zoom } from './viewer-model.ts';

export interface ZoomStageProps {
  zoom: Zoom;
  zoomable: boolean;
  onZoom: (update: (zoom: Zoom) => Zoom) => void;
  onSwipe: (direction: 'next' | 'previous') => void;
  children: ReactNode;
}

interface Gesture {
  pointers: Map<number, { x: number; y: number }>;
  /** Where and when the first pointer went down (for a swipe). */
  start?: { x: number; y: number; time: number };
  /** The distance between two fingers at the last move (for a pinch). */
  spread?: number;
}

export function ZoomStage({ zoom, zoomable, onZoom, onSwipe, children }: ZoomStageProps) {
  const stageRef = useRef<HTMLDivElement>(null);
  const gesture = useRef<Gesture>({ pointers: new Map() });
  const zoomableRef = useRef(zoomable);
  useEffect(() => {
    zoomableRef.current = zoomable;
  });

  /** A point of the page relative to the stage's centre. */
  const fromCentre = (clientX: number, clientY: number) => {
    const rect = stageRef.current?.getBoundingClientRect();
    if (!rect) return { x: 0, y: 0 };
    return { x: clientX - (rect.left + rect.width / 2), y: clientY - (rect.top + rect.height / 2) };
  };
  const stageSize = () => {
    const rect = stageRef.current?.getBoundingClientRect();
    return { width: rect?.width ?? 0, height: rect?.height ?? 0 };
  };

  // The wheel needs a listener that is not passive, to keep the page from scrolling behind the dialog.
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const onWheel = (event: WheelEvent) => {
      if (!zoomableRef.current) return;
      event.preventDefault();
      const rect = stage.getBoundingClientRect();
      const point = {
        x: event.clientX - (rect.left + rect.width / 2),
        y: event.clientY - (rect.top + rect.height / 2),
      };
      onZoom((z) => zoomAbout(z, wheelFactor(event.deltaY), point));
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, [onZoom]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const { pointers } = gesture.current;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    // Moves outside the stage still belong to a pan or pinch (a DOM without pointer capture, jsdom's, goes without).
    // Only on a photo: Chromium sends a captured pointer's click to the stage, so a video's own controls and the
    // Try again button would never get theirs (a swipe needs no capture: the stage fills the window).
    if (zoomable) {
      (event.currentTarget as Partial<Pick<Element, 'setPointerCapture'>>).setPointerCapture?.(event.pointerId);
    }
    if (pointers.size === 1) gesture.current.start = { x: event.clientX, y: event.clientY, time: event.timeStamp };
    else gesture.current.start = undefined;
    gesture.current.spread = pointers.size === 2 ? spreadOf(pointers) : undefined;
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const { pointers } = gesture.current;
    const previous = pointers.get(event.pointerId);
    if (!previous) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (!zoomable) return;
    if (pointers.size === 2) {
      const spread = spreadOf(pointers);
      const before = gesture.current.spread;
      gesture.current.spread = spread;
      if (!before || !spread) return;
      const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const middle = fromCentre((a.x + b.x) / 2, (a.y + b.y) / 2);
      onZoom((z) => zoomAbout(z, spread / before, middle));
    } else if (pointers.size === 1 && zoom.scale > 1) {
      const size = stageSize();
      onZoom((z) => pan(z, event.clientX - previous.x, event.clientY - previous.y, size));
    }
  };

  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const { pointers, start } = gesture.current;
    if (!pointers.delete(event.pointerId)) return;
    gesture.current.spread = undefined;
    if (pointers.size > 0 || !start) return;
    gesture.current.start = undefined;
    if (zoom.scale > 1) return;
    const direction = swipeOf(event.clientX - start.x, event.clientY - start.y, event.timeStamp - start.time);
    if (direction) onSwipe(direction);
  };

  return (
    <Box
      ref={stageRef}
      data-testid="viewer-stage"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onDoubleClick={(event) => {
        if (!zoomable) return;
        const point = fromCentre(event.clientX, event.clientY);
        onZoom((z) => (z.scale > 1 ? noZoom : zoomAbout(z, stepScale, point)));
      }}
      sx={{
        position: 'absolute',
        inset: 0,
        overflow: 'hidden',
        touchAction: 'none',
        cursor: zoom.scale > 1 ? 'grab' : 'default',
      }}
    >
      <Box
        data-testid="viewer-media"
        sx={{
          width: '100%',
          height: '100%',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          transformOrigin: 'center',
        }}
        style={{ transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }}
      >
        {children}
      </Box>
    </Box>
  );
}

function spreadOf(pointers: Map<number, { x: number; y: number }>): number | undefined {
  const [a, b] = [...pointers.values()];
  return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : undefined;
}
