/**
 * The live temperature chart (uPlot on a canvas): each heater's actual temperature as a solid
 * line and its target as a dashed one of the same colour, over the last ten minutes. The chart
 * is made once per set of heaters (and theme) and fed with setData; it follows its box's width. For screen
 * readers it is an image whose label reads the current values (the list beside it says the same).
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { heaterLabel, heaterOrder } from '../fleet/format';
import { t } from '../texts';
import { theme } from '../theme';
import type { TemperatureSeries } from './temperature-series';

/** One colour per heater, readable on light and dark backgrounds. */
const COLORS = ['#e4572e', '#2e86de', '#17a589', '#a55eea', '#f39c12', '#8e44ad'];
const HEIGHT = 220;

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

function options(heaters: string[], width: number): uPlot.Options {
  const text = cssVar('--muted');
  const grid = cssVar('--border');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const series: uPlot.Series[] = [{}];
  heaters.forEach((heater, i) => {
    const color = COLORS[i % COLORS.length];
    series.push({ label: heaterLabel(heater), stroke: color, width: 2, spanGaps: true, points: { show: false } });
    series.push({ label: t.printerPage.target(heaterLabel(heater)), stroke: color, width: 1, dash: [6, 4], spanGaps: true, points: { show: false } });
  });
  return {
    width,
    height: HEIGHT,
    series,
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(50, Math.ceil((max + 10) / 50) * 50)] } },
    axes: [axis, { ...axis, label: '°C', labelSize: 16 }],
    // The legend names the lines; the values are in the list beside the chart.
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
  };
}

export function TemperatureChart({ series }: { series: TemperatureSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<{ plot: uPlot; key: string } | null>(null);
  const version = series.version.value;
  // The axes take their colours from the theme when the chart is made: a new theme makes it again.
  const mode = theme.value;

  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const data = series.data();
    const key = `${mode}:${data.heaters.join(',')}`;
    if (chart.current === null || chart.current.key !== key) {
      chart.current?.plot.destroy();
      chart.current = { plot: new uPlot(options(data.heaters, element.clientWidth), data.columns as uPlot.AlignedData, element), key };
    } else chart.current.plot.setData(data.columns as uPlot.AlignedData);
  }, [version, mode]);

  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const resize = new ResizeObserver(() => chart.current?.plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.current?.plot.destroy();
      chart.current = null;
    };
  }, []);

  const now = Object.entries(series.latest())
    .sort(([a], [b]) => heaterOrder(a) - heaterOrder(b))
    .map(([heater, { actual, target }]) => `${heaterLabel(heater)} ${t.temperature(actual, target)}`);
  return <div class="temp-chart" ref={box} role="img" aria-label={t.printerPage.chartLabel(now.join(', '))} data-points={series.pointCount()} />;
}
