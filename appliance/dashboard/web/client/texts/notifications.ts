/** The notification list's texts (the bell and the toasts use them too). */
export const notificationsTexts = {
  title: 'Notifications',
  all: 'All',
  unreadOnly: (count: number) => `Unread (${count})`,
  markRead: 'Mark read',
  markAllRead: 'Mark all read',
  delete: 'Delete',
  deleteOne: (title: string) => `Delete the notification "${title}"`,
  more: 'Show older',
  none: 'No notifications.',
  noneUnread: 'Nothing unread.',
  unreadTag: 'unread',
  levels: { info: 'Info', warning: 'Warning', error: 'Error' } as Record<string, string>,
};
