// The bounding box of an STL file (binary or ASCII). The peers' custom G-code needs a few facts of
// the job before slicing (height of the top layer, first-layer footprint), and every slicer of
// the bench places the model centred on the bed, so the box is enough to derive them.

function isBinaryStl(bytes) {
  if (bytes.length < 84) return false;
  const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
  return bytes.length === 84 + count * 50;
}

/** `{ min: [x, y, z], max: [x, y, z] }` of every vertex of the file. */
export function stlBounds(bytes) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const add = (axis, value) => {
    if (value < min[axis]) min[axis] = value;
    if (value > max[axis]) max[axis] = value;
  };
  if (isBinaryStl(bytes)) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(80, true);
    for (let t = 0; t < count; t++) {
      for (let k = 0; k < 9; k++) add(k % 3, view.getFloat32(84 + t * 50 + 12 + k * 4, true));
    }
  } else {
    const text = new TextDecoder('latin1').decode(bytes);
    for (const m of text.matchAll(/vertex\s+(\S+)\s+(\S+)\s+(\S+)/g)) {
      for (let axis = 0; axis < 3; axis++) add(axis, Number(m[axis + 1]));
    }
  }
  if (!(min[0] <= max[0])) throw new Error('the STL file has no vertices');
  return { min, max };
}
