/**
 * The machine's serial ports as serialport lists them (it reads udev through `udevadm`, so USB
 * adapters come with their ids): path, USB vendor and product id, manufacturer, serial number,
 * and the stable `/dev/serial/by-id/…` link when udev made one (a ttyUSB number changes with
 * the order adapters are plugged in; the by-id path does not).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SerialPort } from 'serialport';

export interface SerialPortEntry {
  path: string;
  by_id_path: string | null;
  vendor_id: string | null;
  product_id: string | null;
  manufacturer: string | null;
  serial_number: string | null;
}

const BY_ID_DIR = '/dev/serial/by-id';

export async function listSerialPorts(): Promise<SerialPortEntry[]> {
  const ports = await SerialPort.list();
  return ports.map((p) => {
    const byId = p.pnpId ? path.join(BY_ID_DIR, p.pnpId) : null;
    return {
      path: p.path,
      by_id_path: byId && existsSync(byId) ? byId : null,
      vendor_id: p.vendorId?.toLowerCase() ?? null,
      product_id: p.productId?.toLowerCase() ?? null,
      manufacturer: p.manufacturer ?? null,
      serial_number: p.serialNumber ?? null,
    };
  });
}
