// SPDX-License-Identifier: MIT
// The help overlay's lines and where they go, as CanvasModel's HelpLines and
// HelpLayout place them: the spec's `help` numbers, held to its `help` and
// `helpLines` vectors. Fixed columns, so no font metrics enter the layout.
import {SPEC} from './spec.js';

export const HELP = SPEC.help;
// The spec's one text font, which the texts are drawn in too.
export const HELP_FONT = SPEC.text.font;

// "ctrl+shift+z" -> "Ctrl+Shift+Z", "plus" -> "+", "f1" -> "F1".
export function keyLabel(name) {
    return name.split('+').map(part => HELP.keyLabels[part] ?? part.charAt(0).toUpperCase() + part.slice(1)).join('+');
}

// [[key, action], …] (status canvas.keys, or the spec's defaults) -> [[keys, label], …]:
// the help's own line, then one line per action in the order of its first key.
export function helpLines(table) {
    const keys = new Map();
    for (const [key, action] of table) {
        if (HELP.keys.includes(key) || action === 'none')
            continue;
        if (!keys.has(action))
            keys.set(action, []);
        keys.get(action).push(keyLabel(key));
    }
    const own = [HELP.keys.map(keyLabel).join(', '), HELP.labels.help];
    return [own, ...[...keys].map(([action, names]) => [names.join(', '), HELP.labels[action] ?? action])];
}

export function defaultKeyTable() {
    return Object.entries(SPEC.keys);
}

// {panel: [x, y, width, height], title: [x, baseline], rows: [[keyX, labelX, baseline], …], scale} in a
// monitor's pixels; blocks wider than the monitor shrink the whole panel by `scale`, text included.
export function helpLayout(lines, width, height) {
    const fit = Math.max(1, Math.floor((height - 2 * HELP.margin - 2 * HELP.padding) / HELP.lineHeight) - 1);
    const blocks = Math.max(1, Math.floor((lines + fit - 1) / fit));
    const perBlock = Math.floor((lines + blocks - 1) / blocks);
    const blockWidth = HELP.keyColumnWidth + HELP.actionColumnWidth;
    const fullWidth = 2 * HELP.padding + blocks * blockWidth + (blocks - 1) * HELP.blockGap;
    const scale = Math.max(0.001, Math.min(1, Math.floor((width - 2 * HELP.margin) / fullWidth * 1000) / 1000));
    const padding = HELP.padding * scale, lineHeight = HELP.lineHeight * scale;
    const panelWidth = fullWidth * scale;
    const panelHeight = (2 * HELP.padding + (1 + perBlock) * HELP.lineHeight) * scale;
    const x = Math.floor((width - panelWidth) / 2), y = Math.floor((height - panelHeight) / 2);
    const blockStep = (blockWidth + HELP.blockGap) * scale;
    const rows = [];
    for (let i = 0; i < lines; i++) {
        const keyX = x + padding + Math.floor(i / perBlock) * blockStep;
        rows.push([keyX, keyX + HELP.keyColumnWidth * scale, y + padding + (1 + i % perBlock) * lineHeight + HELP.baseline * scale]);
    }
    return {panel: [x, y, panelWidth, panelHeight], title: [x + padding, y + padding + HELP.baseline * scale], rows, scale};
}
