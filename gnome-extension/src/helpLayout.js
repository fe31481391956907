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

// {panel: [x, y, width, height], title: [x, baseline], rows: [[keyX, labelX, baseline], …]} in a monitor's pixels.
export function helpLayout(lines, width, height) {
    const fit = Math.max(1, Math.floor((height - 2 * HELP.margin - 2 * HELP.padding) / HELP.lineHeight) - 1);
    const blocks = Math.max(1, Math.floor((lines + fit - 1) / fit));
    const perBlock = Math.floor((lines + blocks - 1) / blocks);
    const blockWidth = HELP.keyColumnWidth + HELP.actionColumnWidth;
    const panelWidth = 2 * HELP.padding + blocks * blockWidth + (blocks - 1) * HELP.blockGap;
    const panelHeight = 2 * HELP.padding + (1 + perBlock) * HELP.lineHeight;
    const x = Math.floor((width - panelWidth) / 2), y = Math.floor((height - panelHeight) / 2);
    const rows = [];
    for (let i = 0; i < lines; i++) {
        const keyX = x + HELP.padding + Math.floor(i / perBlock) * (blockWidth + HELP.blockGap);
        rows.push([keyX, keyX + HELP.keyColumnWidth, y + HELP.padding + (1 + i % perBlock) * HELP.lineHeight + HELP.baseline]);
    }
    return {panel: [x, y, panelWidth, panelHeight], title: [x + HELP.padding, y + HELP.padding + HELP.baseline], rows};
}
