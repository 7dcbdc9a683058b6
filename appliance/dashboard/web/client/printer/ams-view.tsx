/**
 * A Bambu printer's AMS in full: each unit with its humidity and temperature, each tray with its
 * material, colour and remaining filament, the active tray marked, and the external spool.
 */
import { colorName, swatchStyle } from '../fleet/format';
import type { AmsTray, AmsUpdate } from '../fleet/store';
import { t } from '../texts';

function TrayRow({ tray, name, active }: { tray: AmsTray; name: string; active: boolean }) {
  return (
    <tr class={active ? 'active' : undefined} data-tray={name}>
      <th scope="row">{name}</th>
      <td>
        {tray.present && <span class="swatch" style={swatchStyle(tray.color)} aria-hidden="true" />}
        {tray.present ? (tray.material ?? t.printer.unknownMaterial) : t.printerPage.emptyTray}
      </td>
      <td>{tray.present ? colorName(tray.color) : ''}</td>
      <td>{tray.present && tray.remaining_percent !== null ? `${Math.round(tray.remaining_percent)} %` : ''}</td>
      <td>{active ? t.printerPage.activeTray : ''}</td>
    </tr>
  );
}

export function AmsView({ ams }: { ams: AmsUpdate }) {
  return (
    <section class="panel" aria-labelledby="ams-title">
      <h2 id="ams-title">{t.printerPage.ams}</h2>
      {ams.units.map((unit) => (
        <table key={unit.id} class="ams-table">
          <caption>
            {t.printer.ams(unit.id)}
            {unit.humidity !== null && ` · ${t.printerPage.humidity(unit.humidity)}`}
            {unit.temperature !== null && ` · ${unit.temperature.toFixed(0)} °C`}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t.printerPage.trayColumn}</th>
              <th scope="col">{t.printerPage.material}</th>
              <th scope="col">{t.printerPage.color}</th>
              <th scope="col">{t.printerPage.remaining}</th>
              <th scope="col">
                <span class="visually-hidden">{t.printerPage.activeTray}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {unit.trays.map((tray) => (
              <TrayRow key={tray.slot} tray={tray} name={t.printerPage.trayName(tray.slot)} active={ams.active_tray === unit.id * 4 + tray.slot} />
            ))}
          </tbody>
        </table>
      ))}
      {ams.external !== null && (
        <table class="ams-table">
          <tbody>
            <TrayRow tray={ams.external} name={t.printer.external} active={ams.active_tray === 'external'} />
          </tbody>
        </table>
      )}
    </section>
  );
}
