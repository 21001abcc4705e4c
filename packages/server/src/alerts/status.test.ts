import { NOTIFICATION_STATUSES } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { type AlertEvent, nextStatus, ownerEvent } from './status.js';

const EVENTS: AlertEvent[] = ['trigger', 'expire', 'update', 'enable', 'disable'];

/** The whole table, written out: [from, event, to] (null: the event does not apply). */
const TABLE: [string, AlertEvent, string | null][] = [
  ['active', 'trigger', 'triggered'],
  ['active', 'expire', 'expired'],
  ['active', 'update', 'active'],
  ['active', 'enable', 'active'],
  ['active', 'disable', 'disabled'],
  ['triggered', 'trigger', null],
  ['triggered', 'expire', null],
  ['triggered', 'update', 'active'],
  ['triggered', 'enable', 'active'],
  ['triggered', 'disable', 'disabled'],
  ['expired', 'trigger', null],
  ['expired', 'expire', null],
  ['expired', 'update', 'active'],
  ['expired', 'enable', 'active'],
  ['expired', 'disable', 'disabled'],
  ['disabled', 'trigger', null],
  ['disabled', 'expire', null],
  ['disabled', 'update', 'disabled'],
  ['disabled', 'enable', 'active'],
  ['disabled', 'disable', 'disabled'],
];

describe('alert status transitions', () => {
  it('covers every (status, event) pair', () => {
    expect(TABLE).toHaveLength(NOTIFICATION_STATUSES.length * EVENTS.length);
  });
  it.each(TABLE)('%s --%s--> %s', (from, event, to) => {
    expect(nextStatus(from as (typeof NOTIFICATION_STATUSES)[number], event)).toBe(to);
  });
  it('reads the owner event from enabled', () => {
    expect([ownerEvent(undefined), ownerEvent(true), ownerEvent(false)]).toEqual(['update', 'enable', 'disable']);
  });
});
