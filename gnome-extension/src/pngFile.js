// SPDX-License-Identifier: MIT
// What the share answers need of a PNG without decoding it (screenShare.js):
// its size, from the header. Pure.

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// [width, height] of the PNG in `data` (a Uint8Array), or null when it is not one.
export function pngSize(data) {
    // The signature, then the IHDR chunk: length, type, width, height (big-endian).
    if (!data || data.length < 24 || SIGNATURE.some((b, i) => data[i] !== b) ||
        String.fromCharCode(...data.slice(12, 16)) !== 'IHDR')
        return null;
    const word = at => ((data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]) >>> 0;
    return [word(16), word(20)];
}

// The file a picture is written to before it is renamed over `path`: beside it, so the rename
// is one step on one file system, hidden, and unique to this request.
export function temporaryBeside(path, unique) {
    const slash = path.lastIndexOf('/');
    return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.${unique}.tmp`;
}
