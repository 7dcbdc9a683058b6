/**
 * The printer models the simulator can be: what differs between them on the wire. A P1S (like the
 * P1P, A1 and A1 mini) pushes deltas after a `pushall`; an X1C pushes its whole state every time
 * and carries the `fun` capability word in which bit 0x20000000 is clear in Developer Mode.
 */
export const MODEL_NAMES = ['P1S', 'X1C'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

export interface VersionModule {
  name: string;
  product_name?: string;
  sw_ver: string;
  hw_ver: string;
  /** True for modules that carry the printer's own serial number. */
  ownSerial: boolean;
}

export interface ModelProfile {
  name: ModelName;
  /** `DevModel.bambu.com` of its SSDP announcement. */
  ssdpModel: string;
  /** `product_name` in `get_version`, as Bambu Studio shows it. */
  productName: string;
  pushStyle: 'delta' | 'full';
  /** Whether push_status carries `fun` (X1 and H2 series do; P1 and A1 never send it). */
  sendsFun: boolean;
  nozzleType: string;
  lights: readonly string[];
  modules: readonly VersionModule[];
}

const P1S: ModelProfile = {
  name: 'P1S',
  ssdpModel: 'C12',
  productName: 'P1S',
  pushStyle: 'delta',
  sendsFun: false,
  nozzleType: 'stainless_steel',
  lights: ['chamber_light'],
  modules: [
    { name: 'ota', product_name: 'P1S', sw_ver: '01.08.02.00', hw_ver: 'OTA', ownSerial: true },
    { name: 'esp32', product_name: 'P1S', sw_ver: '01.11.32.80', hw_ver: 'AP04', ownSerial: true },
    { name: 'mc', sw_ver: '00.00.26.52', hw_ver: 'MC02', ownSerial: true },
    { name: 'th', sw_ver: '00.00.07.75', hw_ver: 'TH02', ownSerial: true },
  ],
};

const X1C: ModelProfile = {
  name: 'X1C',
  ssdpModel: '3DPrinter-X1-Carbon',
  productName: 'X1 Carbon',
  pushStyle: 'full',
  sendsFun: true,
  nozzleType: 'hardened_steel',
  lights: ['chamber_light', 'work_light'],
  modules: [
    { name: 'ota', product_name: 'X1 Carbon', sw_ver: '01.08.05.00', hw_ver: 'OTA', ownSerial: true },
    { name: 'rv1126', sw_ver: '00.00.27.38', hw_ver: 'AP05', ownSerial: true },
    { name: 'th', sw_ver: '00.00.04.00', hw_ver: 'TH07', ownSerial: true },
    { name: 'mc', sw_ver: '00.00.10.48', hw_ver: 'MC07', ownSerial: true },
    { name: 'xm', sw_ver: '00.00.00.00', hw_ver: '', ownSerial: false },
  ],
};

export const MODELS: Readonly<Record<ModelName, ModelProfile>> = { P1S, X1C };

/** Firmware and hardware versions an AMS reports as module `ams/<id>`. */
export const AMS_MODULE = { sw_ver: '00.00.06.49', hw_ver: 'AMS08' } as const;

export function isModelName(value: string): value is ModelName {
  return (MODEL_NAMES as readonly string[]).includes(value);
}
