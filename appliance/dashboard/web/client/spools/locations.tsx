/** The storage locations: latest temperature and humidity, the limit in force, an excursion, and a chart of the last 24 hours. */
import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { api } from '../api/client';
import { accentColour, axisColour, Chart, type ChartData } from '../history/chart';
import { t } from '../texts';
import type { Location } from './store';

const l = t.spools.locations;

function ClimateChart({ location, version }: { location: Location; version: number }) {
  const data = useSignal<ChartData | null>(null);
  useEffect(() => {
    api('GET /api/inventory/locations/{id}/climate', { path: { id: location.id } }).then(
      ({ readings }) => {
        data.value = [readings.map((r) => Date.parse(r.at) / 1000), readings.map((r) => r.humidity_pct), readings.map((r) => r.temperature_c)];
      },
      () => {
        data.value = null;
      },
    );
  }, [location.id, version]);
  const options = useMemo(
    () => ({
      legend: { show: true },
      cursor: { show: false },
      scales: { pct: { range: [0, 100] as [number, number] } },
      axes: [{ stroke: axisColour() }, { stroke: axisColour(), scale: 'pct' }, { stroke: axisColour(), scale: '°C', side: 1, grid: { show: false } }],
      series: [
        {},
        { label: l.humidity, scale: 'pct', stroke: accentColour(), width: 2 },
        { label: l.temperature, scale: '°C', stroke: accentColour('--warn'), width: 2 },
      ],
    }),
    [],
  );
  if (data.value === null || data.value[0].length === 0) return null;
  return <Chart options={options} data={data.value} label={l.chart(location.name)} height={160} />;
}

export function Locations({ locations, version }: { locations: Location[]; version: number }) {
  return (
    <section class="panel" aria-labelledby="locations-heading">
      <h2 id="locations-heading">{l.heading}</h2>
      {locations.length === 0 ? (
        <p class="empty">{l.empty}</p>
      ) : (
        <ul class="locations">
          {locations.map((loc) => (
            <li key={loc.id} class="location" data-location={loc.id} data-excursion={loc.excursion !== null ? 'true' : undefined}>
              <h3>{loc.name}</h3>
              <p>
                {loc.latest_reading === null ? l.noReading : l.reading(loc.latest_reading.temperature_c, loc.latest_reading.humidity_pct)}
                {' · '}
                {loc.effective_limit === null ? l.noLimit : l.limit(loc.effective_limit.limit_pct)}
                {' · '}
                {l.spools(loc.spool_count)}
              </p>
              {loc.excursion !== null && <p class="warn-text">{l.excursion(new Date(loc.excursion.since).toLocaleString())}</p>}
              <ClimateChart location={loc} version={version} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
