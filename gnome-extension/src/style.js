// SPDX-License-Identifier: MIT
// The style of a stroke and the width rule, as StylusCore's StrokeStyle: the
// numbers are canvas-spec.json's (spec.js, which build.sh generates from it).
import {SPEC} from './spec.js';

export const REFERENCE_WIDTH = SPEC.referenceWidth;
export const DEFAULT_TOOL = SPEC.defaultStyle.tool;
export const DEFAULT_COLOR = SPEC.defaultStyle.color;
export const DEFAULT_WIDTH = SPEC.defaultStyle.width;
export const PRESSURE_FLOOR = SPEC.width.pressureFloor;
export const ERASER_WIDTH_FACTOR = SPEC.width.eraserFactor;
export const HIGHLIGHTER_WIDTH_FACTOR = SPEC.width.highlighterFactor;
export const HIGHLIGHTER_OPACITY = SPEC.width.highlighterOpacity;
export const SHAPE_WIDTH_FACTOR = SPEC.width.shapeFactor;
export const TOOLS = SPEC.tools;
export const SHAPES = SPEC.shapes;
export const DRAWS_WHOLE = SPEC.drawsWhole;

export function toolNamed(name) {
    return TOOLS.includes(name) ? name : DEFAULT_TOOL;
}

export function parseColor(hex) {
    const m = /^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(hex || '');
    return m ? m.slice(1).map(h => parseInt(h, 16) / 255) : parseColor(DEFAULT_COLOR);
}

export function makeStyle(tool, color, width) {
    return {tool: toolNamed(tool), color: color || DEFAULT_COLOR, width: width > 0 ? width : DEFAULT_WIDTH};
}

export function sameStyle(a, b) {
    return a.tool === b.tool && a.color === b.color && a.width === b.width;
}

// A segment's width in reference pixels (of a drawing REFERENCE_WIDTH wide):
// the pen and the laser follow the mean pressure from the floor (a share of the
// width) up to the whole width, the eraser a factor of that, the highlighter a
// factor of the width whatever the pressure, a shape a share of it. Written as
// width · (1 + 15 p) / 16 for a floor of 1/16, bit for bit the Swift model's.
export function referenceWidth(style, a, b) {
    const pressure = Math.max(0, Math.min(1, (a.pressure + b.pressure) / 2));
    const pressed = style.width * (1 + (1 / PRESSURE_FLOOR - 1) * pressure) * PRESSURE_FLOOR;
    if (style.tool === 'eraser')
        return pressed * ERASER_WIDTH_FACTOR;
    if (style.tool === 'highlighter')
        return style.width * HIGHLIGHTER_WIDTH_FACTOR;
    if (SHAPES.includes(style.tool))
        return style.width * SHAPE_WIDTH_FACTOR;
    return pressed;
}

export function drawsWhole(tool) {
    return DRAWS_WHOLE.includes(tool);
}
