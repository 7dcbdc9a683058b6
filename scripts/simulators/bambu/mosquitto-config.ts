/**
 * The files a mosquitto broker for N virtual printers runs on. Each printer gets its own TLS
 * listener (its own port and certificate, CN = serial), password file and ACL, as every real
 * printer is its own broker; `per_listener_settings` keeps them apart inside one process. The
 * printers' own MQTT clients use one plain listener on loopback with internal users.
 *
 * ACLs: `bblp` may publish only to `device/<serial>/request` and receive only
 * `device/<serial>/report` of its printer. A real printer's broker is laxer (a client may
 * subscribe to `device/#`, and a publish to `report` is not refused); mosquitto drops a
 * publish the ACL denies without telling an MQTT 3.1.1 client, so a driver that publishes its
 * commands to `report` sees them ignored here too.
 */
import path from 'node:path';

export const LAN_USER = 'bblp';

export interface PrinterListener {
  serial: string;
  port: number;
  /** The code the broker accepts (differs from the printer's when the wrong-code fault is on). */
  accessCode: string;
  certPath: string;
  keyPath: string;
}

export interface InternalUser {
  serial: string;
  name: string;
  password: string;
}

export interface BrokerLayout {
  dir: string;
  bindHost: string;
  internalPort: number;
  /** The account mosquitto keeps when started as root (it would switch to "mosquitto" otherwise). */
  runAs: string;
  listeners: readonly PrinterListener[];
  internalUsers: readonly InternalUser[];
}

export const reportTopic = (serial: string): string => `device/${serial}/report`;
export const requestTopic = (serial: string): string => `device/${serial}/request`;
export const internalUserName = (serial: string): string => `printer-${serial}`;

export function brokerFiles(dir: string) {
  return {
    config: path.join(dir, 'mosquitto.conf'),
    log: path.join(dir, 'mosquitto.log'),
    internalPasswords: path.join(dir, 'internal.passwd'),
    internalAcl: path.join(dir, 'internal.acl'),
    printerPasswords: (serial: string) => path.join(dir, `${serial}.passwd`),
    printerAcl: (serial: string) => path.join(dir, `${serial}.acl`),
  };
}

/** Plain `user:password` lines; `mosquitto_passwd -U` hashes them in place. */
export function passwordLines(entries: ReadonlyArray<{ user: string; password: string }>): string {
  return entries.map((e) => `${e.user}:${e.password}\n`).join('');
}

export function printerAcl(serial: string): string {
  return `user ${LAN_USER}\ntopic write ${requestTopic(serial)}\ntopic read ${reportTopic(serial)}\n`;
}

export function internalAcl(users: readonly InternalUser[]): string {
  return users.map((u) => `user ${u.name}\ntopic read ${requestTopic(u.serial)}\ntopic write ${reportTopic(u.serial)}\n`).join('\n');
}

export function mosquittoConf(layout: BrokerLayout): string {
  const files = brokerFiles(layout.dir);
  const lines = [
    'per_listener_settings true',
    'persistence false',
    `user ${layout.runAs}`,
    `log_dest file ${files.log}`,
    'log_type error',
    'log_type warning',
    'log_type notice',
    'log_type information',
    'connection_messages true',
    '',
    `listener ${layout.internalPort} 127.0.0.1`,
    'allow_anonymous false',
    `password_file ${files.internalPasswords}`,
    `acl_file ${files.internalAcl}`,
  ];
  for (const l of layout.listeners) {
    lines.push(
      '',
      `listener ${l.port} ${layout.bindHost}`,
      `certfile ${l.certPath}`,
      `keyfile ${l.keyPath}`,
      'require_certificate false',
      'allow_anonymous false',
      `password_file ${files.printerPasswords(l.serial)}`,
      `acl_file ${files.printerAcl(l.serial)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
