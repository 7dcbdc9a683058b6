#!/usr/bin/env node
// The Raspberry Pi image checked without a Pi (image/README.md, "The Pi image"): its partitions
// and boot files (rpi-checks.mjs), then its arm64 root under qemu-user-static (rpi-root-checks.mjs:
// files in place, Node 20, the native addons, a slice, both services' /api/health). As root:
//   sudo node scripts/image/check-rpi.mjs [--image IMG] [--keyring CA.pem]
// `npm run test:image` runs the same checks after the twin's. Results: build/test-image/rpi-results.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkRpiImage } from './rpi-checks.mjs';
import { checkRpiRoot } from './rpi-root-checks.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values: opts } = parseArgs({
  options: {
    image: { type: 'string', default: path.join(root, 'build/image-rpi/images/printyard-rpi.img') },
    keyring: { type: 'string', default: path.join(root, 'build/rauc-dev-ca/ca.cert.pem') },
  },
});
const results = { image: opts.image, started: new Date().toISOString() };
let failed = false;
try {
  results.disk = checkRpiImage(opts.image);
  process.stderr.write(`[check-rpi] ok   partitions and boot files ${JSON.stringify(results.disk)}\n`);
  const t0 = Date.now();
  results.root = await checkRpiRoot(opts.image, { keyring: opts.keyring });
  results.rootSeconds = (Date.now() - t0) / 1000;
  process.stderr.write(`[check-rpi] ok   arm64 root ${JSON.stringify(results.root)}\n`);
} catch (err) {
  failed = true;
  results.error = err instanceof Error ? err.stack : String(err);
  process.stderr.write(`[check-rpi] FAIL ${results.error}\n`);
} finally {
  results.finished = new Date().toISOString();
  const out = path.join(root, 'build/test-image/rpi-results.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stderr.write(`[check-rpi] results in ${out}\n`);
}
process.exit(failed ? 1 : 0);
