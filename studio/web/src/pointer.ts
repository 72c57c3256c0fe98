// capture keeps a drag's pointer events on the element it started on. A
// pointer the browser does not know as active (a synthetic event) cannot be
// captured; the drag then follows the events that reach the element.
export function capture(e: PointerEvent): void {
  try {
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
  } catch {
    // not an active pointer: nothing to capture
  }
}
