/**
 * The statistics of GET /api/history/stats over the page's filters: a summary line, prints and
 * success rate per month, filament per material, hours per printer (uPlot bar charts).
 */
import { useMemo } from 'preact/hooks';
import type { Ok } from '../api/client';
import { t } from '../texts';
import { accentColour, axisColour, bars, Chart, categoryAxis } from './chart';

export type HistoryStats = Ok<'GET /api/history/stats'>;
const s = t.history.stats;

function barChart(names: string[], values: number[], label: string, colour: string) {
  return {
    options: {
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [-0.5, names.length - 0.5] as [number, number] } },
      axes: [categoryAxis(names), { stroke: axisColour(), label }],
      series: [{}, { label, fill: colour, stroke: colour, paths: bars, points: { show: false } }],
    },
    data: [names.map((_n, i) => i), values] as [number[], number[]],
  };
}

export function HistoryStatsView({ stats }: { stats: HistoryStats }) {
  const charts = useMemo(() => {
    const months = Object.keys(stats.by_month).sort();
    const monthly = {
      options: {
        legend: { show: true },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, months.length - 0.5] as [number, number] }, pct: { range: [0, 100] as [number, number] } },
        axes: [
          categoryAxis(months),
          { stroke: axisColour(), label: s.prints },
          { stroke: axisColour(), scale: 'pct', side: 1, label: s.successRate, grid: { show: false } },
        ],
        series: [
          {},
          { label: s.prints, fill: accentColour(), stroke: accentColour(), paths: bars, points: { show: false } },
          { label: s.successRate, scale: 'pct', stroke: accentColour('--ok'), width: 2 },
        ],
      },
      data: [
        months.map((_m, i) => i),
        months.map((m) => stats.by_month[m].prints),
        months.map((m) => (stats.by_month[m].success_rate ?? 0) * 100),
      ] as [number[], number[], number[]],
    };
    const materials = Object.keys(stats.by_material).sort();
    const printers = Object.keys(stats.by_printer).sort();
    return {
      months,
      monthly,
      materials: barChart(
        materials,
        materials.map((m) => stats.by_material[m].filament_g),
        s.grams,
        accentColour('--warn'),
      ),
      printerNames: printers.map((id) => stats.by_printer[id].printer_name ?? id),
      printers: barChart(
        printers.map((id) => stats.by_printer[id].printer_name ?? id),
        printers.map((id) => stats.by_printer[id].print_hours),
        s.hours,
        accentColour('--ok'),
      ),
    };
  }, [stats]);
  const total = stats.total;
  const rate = total.success_rate === null ? s.noRate : `${Math.round(total.success_rate * 100)} %`;
  return (
    <section class="panel" aria-labelledby="stats-heading">
      <h2 id="stats-heading">{s.heading}</h2>
      {total.prints === 0 ? (
        <p class="empty">{s.noData}</p>
      ) : (
        <>
          <p>{s.summary(total.prints, rate, total.print_hours, total.filament_g)}</p>
          <div class="charts">
            <figure>
              <figcaption>{s.perMonth}</figcaption>
              <Chart options={charts.monthly.options} data={charts.monthly.data} label={s.perMonth} />
            </figure>
            <figure>
              <figcaption>{s.perMaterial}</figcaption>
              <Chart options={charts.materials.options} data={charts.materials.data} label={s.perMaterial} />
            </figure>
            <figure>
              <figcaption>{s.perPrinter}</figcaption>
              <Chart options={charts.printers.options} data={charts.printers.data} label={s.perPrinter} />
            </figure>
          </div>
        </>
      )}
    </section>
  );
}
