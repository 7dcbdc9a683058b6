/**
 * What a print costs, every figure shown:
 *
 *   filament_cost    = grams / 1000 × price_per_kg
 *   price_per_kg     = the spool's price / its initial weight × 1000, or, without a spool (or a
 *                      spool without a price), the mean price per kg of the spools in stock
 *                      (not archived) of that material
 *   kwh              = watts × print_time_s / 3600 / 1000
 *   electricity_cost = kwh × inventory.electricity_price_kwh
 *   machine_cost     = print_time_s / 3600 × inventory.machine_hour_rate
 *   total            = the sum of the three; a filament price that cannot be found counts as
 *                      null in the answer and 0 in the total, and `sources.filament` says 'none'
 *
 * Money is rounded to 4 decimals, energy to 6, grams to 2: enough for a batch of small parts to
 * add up to what they cost together.
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { DashboardSettings } from '../../settings/settings.js';
import type { SpoolDirectory, SpoolView } from '../spool.js';
import type { PrintUsage, UsageLookup } from './usage-lookup.js';

/** An estimate's input, as the query string or a batch item gives it. */
export interface EstimateInput {
  grams?: number;
  spool_id?: number;
  material?: string;
  print_time_s?: number;
  printer_id?: string;
  history_id?: string;
  queue_id?: string;
}

export interface Estimate {
  grams: number;
  print_time_s: number;
  printer_id: string | null;
  spool_id: number | null;
  material: string | null;
  price_per_kg: number | null;
  filament_cost: number | null;
  watts: number;
  kwh: number;
  electricity_price_kwh: number;
  electricity_cost: number;
  machine_hour_rate: number;
  machine_cost: number;
  total: number;
  currency: string;
  sources: {
    /** Where grams and time came from. */
    usage: 'request' | 'history' | 'queue';
    filament: 'spool' | 'material_average' | 'none';
    /** How many spools the material average is taken over (0 unless filament is material_average). */
    spools_averaged: number;
    watts: 'printer' | 'default';
  };
}

export interface EstimateDeps {
  spools: SpoolDirectory;
  usage: UsageLookup;
  settings: () => DashboardSettings['inventory'];
  /** Per-printer power overrides (printer-watts.ts). */
  printerWatts: (printerId: string) => number | null;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function badRequest(message: string, path: string): AppError {
  return new AppError(ErrorCode.validation, 400, message, [{ path, message }]);
}

function spoolPricePerKg(spool: SpoolView): number | null {
  return spool.price === null || spool.initial_weight_g <= 0 ? null : (spool.price / spool.initial_weight_g) * 1000;
}

/** Mean price per kg of the priced spools in stock of a material (compared without case). */
export function materialAverage(spools: readonly SpoolView[], material: string): { price_per_kg: number; count: number } | null {
  const wanted = material.trim().toLowerCase();
  const prices = spools
    .filter((s) => !s.archived && s.material.trim().toLowerCase() === wanted)
    .map(spoolPricePerKg)
    .filter((p): p is number => p !== null);
  if (prices.length === 0) return null;
  return { price_per_kg: prices.reduce((a, b) => a + b, 0) / prices.length, count: prices.length };
}

export class CostEstimator {
  constructor(private readonly deps: EstimateDeps) {}

  /** `where` prefixes the paths of errors: `query` or `body/3`. */
  estimate(input: EstimateInput, where: string): Estimate {
    const { usage, source } = this.usageOf(input, where);
    if (input.spool_id !== undefined && input.material !== undefined) {
      throw badRequest('give spool_id or material, not both: a spool has its material', `${where}/material`);
    }
    const spoolId = input.spool_id ?? usage.spool_id ?? null;
    const spool = spoolId === null ? null : this.deps.spools.get(spoolId);
    if (spoolId !== null && spool === null) throw new AppError(ErrorCode.notFound, 404, `no spool ${spoolId}`);
    const material = spool?.material ?? input.material ?? usage.material ?? null;
    const filament = this.filamentPrice(spool, material);

    const settings = this.deps.settings();
    const printerId = input.printer_id ?? usage.printer_id ?? null;
    const ownWatts = printerId === null ? null : this.deps.printerWatts(printerId);
    const watts = ownWatts ?? settings.printer_watts;
    const hours = usage.duration_s / 3600;
    const kwh = (watts * hours) / 1000;
    const filamentCost = filament.price_per_kg === null ? null : (usage.grams / 1000) * filament.price_per_kg;
    const electricityCost = kwh * settings.electricity_price_kwh;
    const machineCost = hours * settings.machine_hour_rate;
    return {
      grams: round(usage.grams, 2),
      print_time_s: usage.duration_s,
      printer_id: printerId,
      spool_id: spool?.id ?? null,
      material,
      price_per_kg: filament.price_per_kg === null ? null : round(filament.price_per_kg, 4),
      filament_cost: filamentCost === null ? null : round(filamentCost, 4),
      watts,
      kwh: round(kwh, 6),
      electricity_price_kwh: settings.electricity_price_kwh,
      electricity_cost: round(electricityCost, 4),
      machine_hour_rate: settings.machine_hour_rate,
      machine_cost: round(machineCost, 4),
      total: round((filamentCost ?? 0) + electricityCost + machineCost, 4),
      currency: settings.currency,
      sources: { usage: source, filament: filament.source, spools_averaged: filament.count, watts: ownWatts === null ? 'default' : 'printer' },
    };
  }

  private usageOf(input: EstimateInput, where: string): { usage: PrintUsage; source: Estimate['sources']['usage'] } {
    const references = (['grams', 'history_id', 'queue_id'] as const).filter((k) => input[k] !== undefined);
    if (references.length !== 1) {
      throw badRequest('give exactly one of grams, history_id and queue_id', `${where}/${references[1] ?? 'grams'}`);
    }
    if (input.grams !== undefined) {
      const usage = { grams: input.grams, duration_s: input.print_time_s ?? 0, printer_id: null };
      return { usage, source: 'request' };
    }
    if (input.print_time_s !== undefined) {
      throw badRequest('print_time_s comes from the history record or queue job; give it only with grams', `${where}/print_time_s`);
    }
    const lookup = this.deps.usage;
    const kind = input.history_id !== undefined ? 'history' : 'queue';
    const id = (input.history_id ?? input.queue_id) as string;
    const usage = kind === 'history' ? lookup.history(id) : lookup.queueJob(id);
    if (usage === null) throw new AppError(ErrorCode.notFound, 404, kind === 'history' ? `no history record ${id}` : `no queue job ${id}`);
    return { usage, source: kind };
  }

  private filamentPrice(
    spool: SpoolView | null,
    material: string | null,
  ): { price_per_kg: number | null; source: Estimate['sources']['filament']; count: number } {
    const own = spool === null ? null : spoolPricePerKg(spool);
    if (own !== null) return { price_per_kg: own, source: 'spool', count: 0 };
    const average = material === null ? null : materialAverage(this.deps.spools.list(), material);
    if (average !== null) return { price_per_kg: average.price_per_kg, source: 'material_average', count: average.count };
    return { price_per_kg: null, source: 'none', count: 0 };
  }
}
