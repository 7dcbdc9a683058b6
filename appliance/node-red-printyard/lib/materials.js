/**
 * Material names as families, so that "PA6-CF", "Silk PLA" and "PETG HF" match the families
 * "PA", "PLA" and "PETG" that a flow names: the name's words in upper case, trailing digits
 * dropped (PA6, PA12 → PA). "PCTG" stays PCTG: it is not PC.
 */

function families(material) {
  return String(material ?? '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .map((word) => word.replace(/\d+$/, ''))
    .filter((word) => word !== '');
}

/** A list given as an array or as text separated by commas or spaces, as families. */
function familyList(value) {
  const items = Array.isArray(value) ? value : String(value ?? '').split(/[\s,;]+/);
  return [...new Set(items.flatMap(families))];
}

/** True when one of the job's filaments is of one of the families. */
function jobNeedsAny(job, wanted) {
  const filaments = job.requirements?.filaments ?? [];
  return filaments.some((f) => families(f.material).some((family) => wanted.includes(family)));
}

module.exports = { families, familyList, jobNeedsAny };
