import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LABEL_TICKET_MS, LabelTickets } from '../../../../appliance/dashboard/inventory/labels/label-ticket.js';

test('a label ticket names its spool until it expires; another key or an edited ticket names nothing', () => {
  let now = 1_000_000;
  const tickets = new LabelTickets(() => now);
  const { ticket, expiresAt } = tickets.issue(42);
  assert.equal(expiresAt.getTime(), 1_000_000 + LABEL_TICKET_MS);
  assert.equal(tickets.spoolOf(ticket), 42);
  assert.equal(new LabelTickets(() => now).spoolOf(ticket), null, 'a restart (a new key) ends every ticket');
  assert.equal(tickets.spoolOf(ticket.replace(/^42\./, '43.')), null);
  assert.equal(tickets.spoolOf(`${ticket}x`), null);
  now += LABEL_TICKET_MS;
  assert.equal(tickets.spoolOf(ticket), 42, 'still good at the last millisecond');
  now += 1;
  assert.equal(tickets.spoolOf(ticket), null);
});
