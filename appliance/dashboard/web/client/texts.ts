/**
 * Every text the app shows, in one place: a translation is another object of the same type,
 * chosen at start. Texts with values are functions, so word order stays the translator's.
 */
export const en = {
  appName: 'Printyard',
  skipToContent: 'Skip to content',
  nav: { label: 'Main', fleet: 'Fleet' },
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
    boxName: 'Naming the box comes with the settings page: the dashboard has no setting for a name yet. It announces itself as Printyard.',
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
  fleet: {
    title: 'Fleet',
    summaryLabel: 'Printers by state; choose one to filter',
    all: 'All',
    groups: { printing: 'Printing', idle: 'Idle', error: 'Error', offline: 'Offline' } as Record<string, string>,
    empty: 'No printers yet. An administrator adds them (API: POST /api/printers).',
    emptyFilter: 'No printer is in this state.',
    loadFailed: (why: string) => `The printers could not be loaded: ${why}`,
  },
  printer: {
    states: {
      offline: 'Offline',
      connecting: 'Connecting',
      idle: 'Idle',
      preparing: 'Preparing',
      printing: 'Printing',
      paused: 'Paused',
      finished: 'Finished',
      error: 'Error',
    } as Record<string, string>,
    /** Printer types by their API name; an unknown type shows as it is. */
    types: { 'bambu-lan': 'Bambu Lab, LAN', 'marlin-serial': 'Marlin, USB' } as Record<string, string>,
    nozzle: 'Nozzle',
    bed: 'Bed',
    chamber: 'Chamber',
    tool: (n: number) => `Tool ${n}`,
    noJob: 'No job',
    progress: 'Progress',
    timeLeft: (time: string) => `${time} left`,
    layer: (layer: number, total: number | null) => (total === null ? `Layer ${layer}` : `Layer ${layer} of ${total}`),
    ams: (unit: number) => `AMS ${unit + 1}`,
    external: 'External spool',
    tray: (slot: number, material: string, color: string) => `Tray ${slot + 1}: ${material}${color === '' ? '' : `, colour ${color}`}`,
    emptyTray: (slot: number) => `Tray ${slot + 1}: empty`,
    unknownMaterial: '?',
    pause: 'Pause',
    resume: 'Resume',
    stop: 'Stop',
    confirmStop: (name: string) => `Stop the print on ${name}? It cannot be resumed.`,
    plateCleared: 'Plate cleared',
    actionFailed: (why: string) => `Not done: ${why}`,
  },
  duration: (hours: number, minutes: number) => (hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`),
  temperature: (actual: number, target: number) => (target > 0 ? `${actual.toFixed(0)} / ${target.toFixed(0)} °C` : `${actual.toFixed(0)} °C`),
  notFound: { title: 'Page not found', back: 'Back to the fleet' },
  errors: {
    network: 'The box did not answer. Check the connection.',
  },
};

export type Texts = typeof en;

/** The texts in use. */
export const t: Texts = en;
