/**
 * What the box is and has: versions, uptime, storage (free space and damaged state files), hardware, and every feature's state;
 * for admins, the link to the Node-RED editor with their session (`?access_token=`, the editor's one sign-in).
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, reason, type Ok } from '../api/client';
import { can, session } from '../api/session';
import { t } from '../texts';
import { Section } from './section';
import { ProblemAlert } from '../problem-alert';

type Info = Ok<'GET /api/system/info'>;

function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '?';
  const gb = n / 1024 ** 3;
  return gb >= 1 ? `${gb.toFixed(1)} GB` : `${(n / 1024 ** 2).toFixed(0)} MB`;
}

function uptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return t.settings.system.uptime(days, hours, minutes);
}

export function SystemSection() {
  const info = useSignal<Info | null>(null);
  const problem = useSignal<string | null>(null);
  useEffect(() => {
    api('GET /api/system/info').then(
      (answer) => {
        info.value = answer;
      },
      (err: unknown) => {
        problem.value = reason(err, t.errors.network);
      },
    );
  }, []);
  const i = info.value;
  return (
    <Section id="system" title={t.settings.system.title}>
      <ProblemAlert message={problem.value} />
      {i !== null && (
        <>
          <dl class="facts">
            <dt>{t.settings.system.version}</dt>
            <dd>{i.version}</dd>
            <dt>{t.settings.system.node}</dt>
            <dd>{i.versions.node ?? '?'}</dd>
            <dt>{t.settings.system.started}</dt>
            <dd>
              {new Date(i.started_at).toLocaleString()} ({uptime(i.uptime_s)})
            </dd>
            <dt>{t.settings.system.storage}</dt>
            <dd data-ok={i.storage.ok}>{t.settings.system.free(bytes(i.storage.free_bytes), bytes(i.storage.total_bytes))}</dd>
            <dt>{t.settings.system.dataDir}</dt>
            <dd>
              <code>{i.data_dir}</code>
            </dd>
          </dl>
          {(i.storage.problems ?? []).length > 0 && (
            <ul class="error-text">
              {(i.storage.problems ?? []).map((p) => (
                <li key={p.file}>{t.settings.system.storeProblem(p.file, p.moved_to, p.reason)}</li>
              ))}
            </ul>
          )}
          <h3>{t.settings.system.hardware}</h3>
          <ul class="plain-list hardware">
            <li>{t.settings.system.serial(i.hardware.serial?.available === true)}</li>
            <li>{t.settings.system.gpio(i.hardware.gpio?.available === true, i.hardware.gpio?.chips ?? [])}</li>
            <li>{t.settings.system.systemd(i.hardware.systemd_notify?.available === true)}</li>
            <li>{t.settings.system.mdns(i.hardware.mdns?.running === true)}</li>
          </ul>
          {can('admin') && i.automation.node_red_url !== null && session.value !== null && (
            <>
              <h3>{t.settings.system.automation}</h3>
              <p class="hint">{t.settings.system.automationHint}</p>
              <p>
                <a
                  class="node-red-link"
                  href={`${i.automation.node_red_url}/?access_token=${encodeURIComponent(session.value.token)}`}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {t.settings.system.openEditor}
                </a>
              </p>
            </>
          )}
          <h3>{t.settings.system.features}</h3>
          <ul class="plain-list features">
            {i.features.map((f) => (
              <li key={f.name} data-state={f.state}>
                <strong>{f.name}</strong>: {f.state === 'running' ? t.settings.system.running : t.settings.system.failed(f.error ?? '')}
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
