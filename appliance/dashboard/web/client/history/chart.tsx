/**
 * A uPlot chart in a Preact component: made when the element is there, remade when the data or the
 * series change, sized to its box (and again when the box changes width). The canvas is hidden from
 * screen readers: the figure's caption and the page's numbers say the same.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export type ChartData = uPlot.AlignedData;

export function Chart({
  options,
  data,
  label,
  height = 220,
}: {
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: ChartData;
  label: string;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const width = () => Math.max(240, element.clientWidth);
    const chart = new uPlot({ ...options, width: width(), height }, data, element);
    chart.root.setAttribute('aria-hidden', 'true');
    const observer = new ResizeObserver(() => chart.setSize({ width: width(), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [options, data, height]);
  return <div class="chart" ref={box} role="img" aria-label={label} />;
}

/** Bars for categories (x = 0, 1, 2…), named on the x axis. */
export function categoryAxis(names: string[]): uPlot.Axis {
  return { values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? (names[tick] ?? '') : '')), incrs: [1], stroke: axisColour() };
}

export const bars = uPlot.paths.bars?.({ size: [0.6, 60] });

/** The text colour of the current theme, for the axes (uPlot draws on a canvas: no CSS reaches it). */
export function axisColour(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--text').trim() || '#1b1f24';
}

export function accentColour(name = '--accent'): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#0b5cad';
}
