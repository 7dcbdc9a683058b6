/** The header's own texts: the box's title, the slicer indicator, the bell and the toasts. */
export const shellTexts = {
  title: (box: string) => `${box} · Printyard`,
  slicer: { unknown: 'Slicer: checking…', reachable: 'Slicer connected', unreachable: 'Slicer disconnected' } as Record<string, string>,
  slicerVersion: (version: string) => `Slicer service ${version}`,
  slicerLink: (state: string) => `${state}: slicer service settings`,
  bell: (count: number) => (count === 0 ? 'Notifications, none unread' : `Notifications, ${count} unread`),
  toastsLabel: 'New notifications',
  showAll: 'Show all',
  closeToast: (title: string) => `Close "${title}"`,
};
