// SPDX-License-Identifier: MIT
// Where the open-canvas sign goes (`[canvas] indicator`), as CanvasModel's
// OpenIndicator places it: the spec's `indicator` sizes, held to its vectors.
import {SPEC} from './spec.js';

export const INDICATOR_FRAME_WIDTH = SPEC.indicator.frameWidth;
export const INDICATOR_FRAME_OPACITY = SPEC.indicator.frameOpacity;
export const INDICATOR_BADGE_RADIUS = SPEC.indicator.badgeRadius;
export const INDICATOR_BADGE_INSET = SPEC.indicator.badgeInset;
export const INDICATOR_BADGE_OUTLINE = SPEC.indicator.badgeOutline;

// The sign's rectangles in a monitor's pixels, [x, y, width, height]: the frame's
// four edges (not overlapping: each pixel painted once), or the badge's box.
export function indicatorRects(kind, width, height) {
    const w = INDICATOR_FRAME_WIDTH;
    if (kind === 'frame')
        return [[0, 0, width, w], [0, height - w, width, w], [0, w, w, height - 2 * w], [width - w, w, w, height - 2 * w]];
    if (kind === 'badge') {
        const r = INDICATOR_BADGE_RADIUS + INDICATOR_BADGE_OUTLINE + 1;
        const [x, y] = badgeCentre(width);
        return [[Math.floor(x - r), Math.floor(y - r), 2 * r + 2, 2 * r + 2]];
    }
    return [];
}

export function badgeCentre(width) {
    return [width - INDICATOR_BADGE_INSET, INDICATOR_BADGE_INSET];
}
