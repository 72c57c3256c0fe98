// Reordering a list by dragging a handle: a flow's steps, a table's
// columns. The list follows the pointer (captured by the handle), marks
// where the item would land, and on release calls move(from, to) with the
// item's index and the index it takes: the same operation the list's
// buttons and keys send for one place up or down.

import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { capture } from './pointer';

interface Drag {
  from: number;
  over: number;
  pointer: number;
}

/** Reorder is what a list needs to be dragged: its container's ref and
 * pointer handlers, each handle's pointer-down, and each item's classes. */
export interface Reorder<E extends HTMLElement> {
  dragging: boolean;
  list: {
    ref: RefObject<E>;
    onPointerMove: (e: PointerEvent) => void;
    onPointerUp: (e: PointerEvent) => void;
    onPointerCancel: () => void;
  };
  handle: (i: number) => (e: PointerEvent) => void;
  itemClass: (i: number) => string;
}

/** useReorder reorders the items of a list marked `data-reorder-index`
 * (their index) inside the container given list.ref. */
export function useReorder<E extends HTMLElement>(move: (from: number, to: number) => void): Reorder<E> {
  const [drag, setDrag] = useState<Drag | null>(null);
  const ref = useRef<E>(null);
  const overIndex = (y: number): number => {
    const items = ref.current ? [...ref.current.querySelectorAll<HTMLElement>('[data-reorder-index]')] : [];
    for (let i = 0; i < items.length; i++) {
      const r = items[i].getBoundingClientRect();
      if (y < r.top + r.height / 2) return i;
    }
    return Math.max(0, items.length - 1);
  };
  return {
    dragging: drag !== null,
    list: {
      ref,
      onPointerMove: (e) => {
        if (!drag || e.pointerId !== drag.pointer) return;
        const over = overIndex(e.clientY);
        if (over !== drag.over) setDrag({ ...drag, over });
      },
      onPointerUp: (e) => {
        if (!drag || e.pointerId !== drag.pointer) return;
        const to = overIndex(e.clientY);
        const from = drag.from;
        setDrag(null);
        if (from !== to) move(from, to);
      },
      onPointerCancel: () => setDrag(null),
    },
    handle: (i) => (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      capture(e);
      setDrag({ from: i, over: i, pointer: e.pointerId });
    },
    itemClass: (i) =>
      (drag?.from === i ? ' lifted' : '') + (drag && drag.over === i && drag.from !== i ? (drag.from < i ? ' drop-after' : ' drop-before') : ''),
  };
}
