import { useLayoutEffect, useRef, useState } from 'react';

/** Whether a sideways scroller hides content on its left or right, and how wide its visible part is. */
export type ScrollCue = { width: number | undefined; moreLeft: boolean; moreRight: boolean };

/**
 * Watches a table's scroll container: its visible width (for messages pinned in view) and
 * whether columns lie out of sight to either side, so the table can show a shadow at that edge
 * (issue 19, item 18: columns under the sticky Actions column had no cue at all).
 */
export function useScrollCue() {
  const ref = useRef<HTMLDivElement>(null);
  const [cue, setCue] = useState<ScrollCue>({ width: undefined, moreLeft: false, moreRight: false });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      // A pixel of slack: fractional widths round differently in scrollWidth and clientWidth.
      const next = { width: el.clientWidth, moreLeft: el.scrollLeft > 1, moreRight: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 };
      setCue((c) => (c.width === next.width && c.moreLeft === next.moreLeft && c.moreRight === next.moreRight ? c : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    // The table inside grows and shrinks with its rows and columns without the container resizing.
    const table = el.querySelector('table');
    if (table) observer.observe(table);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, []);
  return [ref, cue] as const;
}
