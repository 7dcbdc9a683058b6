/** The fleet page's texts (the cards' own are in printer.ts). */
export const fleetTexts = {
  title: 'Fleet',
  addPrinter: 'Add printer',
  summaryLabel: 'Printers by state; choose one to filter',
  all: 'All',
  groups: { printing: 'Printing', idle: 'Idle', error: 'Error', offline: 'Offline' } as Record<string, string>,
  empty: 'No printers yet. An administrator adds them with “Add printer”.',
  emptyFilter: 'No printer is in this state.',
  loadFailed: (why: string) => `The printers could not be loaded: ${why}`,
};
