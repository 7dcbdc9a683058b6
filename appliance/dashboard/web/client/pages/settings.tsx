/**
 * Settings: the box's name, the slicer service, users and roles, API keys, notification channels,
 * the other settings of config.json, the GPIO pins (admins switch power relays), OS updates (admins
 * install and reboot), and the system's information. Everything but GPIO, updates and the system
 * information is for admins (the server refuses others anyway); other users see those three.
 */
import { useEffect } from 'preact/hooks';
import { can } from '../api/session';
import { location } from '../router';
import { ApiKeysSection } from '../settings/api-keys-section';
import { BoxSection } from '../settings/box-section';
import { ChannelsSection } from '../settings/channels-section';
import { GpioSection } from '../settings/gpio-section';
import { PreferencesSection } from '../settings/preferences-section';
import { SlicerSection } from '../settings/slicer-section';
import { SystemSection } from '../settings/system-section';
import { UpdatesSection } from '../settings/updates-section';
import { UsersSection } from '../settings/users-section';
import { t } from '../texts';

const ADMIN_SECTIONS = ['box', 'slicer', 'users', 'api-keys', 'channels', 'preferences'] as const;

export function SettingsPage() {
  const admin = can('admin');
  // A link to a section (`?section=slicer`, the header's slicer indicator) scrolls there.
  const section = location.value.query.get('section');
  useEffect(() => {
    if (section !== null) document.getElementById(section)?.scrollIntoView();
  }, [section]);
  return (
    <div class="settings">
      <h1 tabIndex={-1}>{t.settings.title}</h1>
      {admin ? (
        <nav class="section-links" aria-label={t.settings.sectionsLabel}>
          {[...ADMIN_SECTIONS, 'gpio' as const, 'updates' as const, 'system' as const].map((id) => (
            <a key={id} href={`#${id}`}>
              {t.settings.sectionNames[id]}
            </a>
          ))}
        </nav>
      ) : (
        <p class="note">{t.settings.adminOnly}</p>
      )}
      {admin && (
        <>
          <BoxSection />
          <SlicerSection />
          <UsersSection />
          <ApiKeysSection />
          <ChannelsSection />
          <PreferencesSection />
        </>
      )}
      <GpioSection />
      <UpdatesSection />
      <SystemSection />
    </div>
  );
}
