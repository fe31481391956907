// SPDX-License-Identifier: MIT
// A `strokes` answer from an index on (`from`), joined to the strokes the
// canvas holds: fetching the whole drawing at each new stroke made the work,
// and what gnome-shell's heap kept, grow with the drawing.

// The index to ask from: the last stroke held (StrokeBook checks it is
// unchanged), or 0 for the whole drawing.
export function fetchFrom(heldCount, rebuild) {
    return rebuild ? 0 : Math.max(0, heldCount - 1);
}

// The whole drawing: the held strokes before `from`, then `strokes`; all of
// `strokes` when the answer has no `from` (a daemon before it); null when the
// drawing now ends before `from` or the held ones do not reach it (strokes
// went meanwhile): then only the whole drawing says which.
export function wholeDrawing(held, from, count, strokes) {
    if (from === undefined || from === null)
        return strokes;
    if (count === undefined || count < from || from > held.length)
        return null;
    return held.slice(0, from).concat(strokes);
}
