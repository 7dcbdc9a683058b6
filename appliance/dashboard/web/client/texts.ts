/**
 * Every text the app shows, in one place: a translation is another object of the same type,
 * chosen at start. Texts with values are functions, so word order stays the translator's. Each
 * page's texts are a module of texts/, under one key here.
 */
import { fleetTexts } from './texts/fleet';
import { historyTexts } from './texts/history';
import { modelsTexts } from './texts/models';
import { notificationsTexts } from './texts/notifications';
import { printerTexts } from './texts/printer';
import { queueTexts } from './texts/queue';
import { settingsTexts } from './texts/settings';
import { shellTexts } from './texts/shell';
import { sliceTexts } from './texts/slice';
import { spoolsTexts } from './texts/spools';
import { printerFormTexts, printerPageTexts } from './texts/printer-page';

export const en = {
  appName: 'Printyard',
  skipToContent: 'Skip to content',
  nav: {
    label: 'Main',
    fleet: 'Fleet',
    slice: 'Slice',
    queue: 'Queue',
    spools: 'Spools',
    history: 'History',
    models: 'Models',
    settings: 'Settings',
  },
  loading: 'Loading…',
  theme: {
    label: (mode: string) => `Colour scheme: ${mode}. Change`,
    system: 'system',
    light: 'light',
    dark: 'dark',
  },
  live: { live: 'Live', connecting: 'Connecting…', offline: 'Not connected' },
  account: {
    signedInAs: (name: string, role: string) => `${name} (${role})`,
    logout: 'Log out',
  },
  roles: { view: 'view', print: 'print', admin: 'admin' } as Record<string, string>,
  setup: {
    title: 'Set up your Printyard',
    intro: 'This box has no users yet. Create the administrator account; you can add other people later.',
    codeIntro:
      'This box had users and lost them. To create a new administrator, enter the one-time setup code from the ' +
      "dashboard's log or the file setup-code in its data directory.",
    username: 'User name',
    usernameHint: 'Letters, digits, ".", "_" or "-".',
    password: 'Password',
    passwordHint: 'At least 8 characters; not a common password and not your user name.',
    repeat: 'Password again',
    setupCode: 'Setup code',
    submit: 'Create administrator',
    mismatch: 'The two passwords differ.',
    boxName: 'Name of this box',
    boxNameHint: 'Shown in the browser and announced on the network, e.g. "Workshop" or "Farm 2".',
    boxNameLength: (max: number) => `Give the box a name of 1 to ${max} characters.`,
    nameNotSet: (why: string) => `The box keeps the name Printyard: ${why}. You can name it in`,
    doneTitle: 'Ready',
    doneIntro: (name: string) => `You are logged in as ${name}. Next steps:`,
    stepPrinters: 'Add your printers: Bambu Lab printers with their access code, Marlin printers on USB (API: POST /api/printers).',
    stepSlicer: 'Check the slicer: the built-in engine works offline; a slicer service shows its state at GET /api/slicer/remote/status.',
    apiDocs: 'API documentation',
    toFleet: 'Go to the fleet',
  },
  login: {
    title: 'Log in',
    username: 'User name',
    password: 'Password',
    submit: 'Log in',
    expired: 'Your session has ended. Log in again to go back to where you were.',
    loggedOut: 'You have logged out.',
  },
  shell: shellTexts,
  fleet: fleetTexts,
  notifications: notificationsTexts,
  settings: settingsTexts,
  printer: printerTexts,
  slice: sliceTexts,
  queue: queueTexts,
  spools: spoolsTexts,
  history: historyTexts,
  models: modelsTexts,
  printerPage: printerPageTexts,
  printerForm: printerFormTexts,
  duration: (hours: number, minutes: number) => (hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`),
  temperature: (actual: number, target: number) => (target > 0 ? `${actual.toFixed(0)} / ${target.toFixed(0)} °C` : `${actual.toFixed(0)} °C`),
  notFound: { title: 'Page not found', back: 'Back to the fleet' },
  errors: {
    network: 'The box did not answer. Check the connection.',
    pageLoad: 'This page could not be loaded. Check the connection and open it again.',
  },
};

export type Texts = typeof en;

/** The texts in use. */
export const t: Texts = en;
