/** A Bambu printer's AMS trays (and its external spool) as colour swatches with their material. */
import { t } from '../texts';
import { colorName, cssColor } from './format';
import type { AmsTray, AmsUpdate } from './store';

function Swatch({ tray, label, active }: { tray: AmsTray; label: string; active: boolean }) {
  const color = cssColor(tray.color);
  return (
    <li class={active ? 'tray active' : 'tray'} title={label}>
      <span
        class={tray.present ? 'swatch' : 'swatch empty'}
        style={color && tray.present ? { backgroundColor: color } : undefined}
        aria-hidden="true"
      />
      <span class="material" aria-hidden="true">
        {tray.present ? (tray.material ?? t.printer.unknownMaterial) : '–'}
      </span>
      <span class="visually-hidden">{label}</span>
    </li>
  );
}

function trayLabel(tray: AmsTray): string {
  return tray.present ? t.printer.tray(tray.slot, tray.material ?? t.printer.unknownMaterial, colorName(tray.color)) : t.printer.emptyTray(tray.slot);
}

export function AmsSwatches({ ams }: { ams: AmsUpdate }) {
  return (
    <div class="ams">
      {ams.units.map((unit) => (
        <div key={unit.id} class="ams-unit">
          <span class="ams-name">{t.printer.ams(unit.id)}</span>
          <ul class="trays">
            {unit.trays.map((tray) => (
              <Swatch key={tray.slot} tray={tray} label={trayLabel(tray)} active={ams.active_tray === unit.id * 4 + tray.slot} />
            ))}
          </ul>
        </div>
      ))}
      {ams.external?.present && (
        <div class="ams-unit">
          <span class="ams-name">{t.printer.external}</span>
          <ul class="trays">
            <Swatch tray={ams.external} label={trayLabel(ams.external)} active={ams.active_tray === 'external'} />
          </ul>
        </div>
      )}
    </div>
  );
}
